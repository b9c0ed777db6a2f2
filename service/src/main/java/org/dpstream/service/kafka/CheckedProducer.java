package org.dpstream.service.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The producer of everything dpstream writes as a client rather than as the service: the demo's
 * samples and bandit traffic, the benchmarks' input, the integration tests' input. Every record is
 * either acknowledged once or fails the writer: a failed send is remembered by its callback, and
 * the next {@link #send}, {@link #flush} or {@link #throwIfFailed} throws with the reason, so a lost
 * record can never pass for a slow service.
 *
 * <p>The settings are the one place that decides how these clients write ({@link #settings}):
 * idempotent, {@code acks=all}, and <em>one request in flight</em>. More than one in flight lost
 * records on a freshly created partition: a first batch refused with NOT_LEADER_OR_FOLLOWER while
 * the broker was still taking leadership, the next batch accepted because a partition without
 * producer state accepts any first sequence number from a non-transactional producer (KAFKA-14359,
 * KAFKA-15591), and the refused batch then retried with OUT_OF_ORDER_SEQUENCE_NUMBER until its
 * delivery timeout expired. With one request in flight no later batch can overtake a refused one.
 */
public final class CheckedProducer<K, V> implements AutoCloseable {

  /** By default, how long a record may take from send to acknowledgement before it counts as failed. */
  public static final Duration DELIVERY_TIMEOUT = Duration.ofMinutes(2);

  private final Producer<K, V> producer;
  private final AtomicReference<Failure> firstFailure = new AtomicReference<>();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong acknowledged = new AtomicLong();
  private final Callback callback = this::completed;

  /** Wraps {@code producer}, which should have {@link #settings}; tests pass a mock. */
  CheckedProducer(Producer<K, V> producer) {
    this.producer = producer;
  }

  /**
   * The producer settings: {@code clientConfig} (bootstrap servers at least), then {@code tuning}
   * (linger, batch size, client id, timeouts...), then the delivery guarantees, which tuning cannot
   * change. The delivery timeout is {@link #DELIVERY_TIMEOUT} unless tuning sets it.
   */
  public static Map<String, Object> settings(Map<String, Object> clientConfig, Map<String, Object> tuning) {
    Map<String, Object> settings = new HashMap<>(clientConfig);
    settings.putAll(tuning);
    settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    settings.put(ProducerConfig.ACKS_CONFIG, "all");
    settings.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
    settings.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) DELIVERY_TIMEOUT.toMillis());
    return settings;
  }

  /** A producer with {@link #settings}. */
  public static <K, V> CheckedProducer<K, V> create(Map<String, Object> clientConfig, Map<String, Object> tuning,
      Serializer<K> keys, Serializer<V> values) {
    return new CheckedProducer<>(new KafkaProducer<>(settings(clientConfig, tuning), keys, values));
  }

  /**
   * Sends asynchronously; the returned future completes when the record is acknowledged or failed.
   *
   * @throws SendFailedException if an earlier record failed: nothing after a gap is sent
   */
  public Future<RecordMetadata> send(ProducerRecord<K, V> record) {
    throwIfFailed();
    return producer.send(record, callback);
  }

  /** Waits until every record sent so far is acknowledged, or throws the first failure. */
  public void flush() {
    producer.flush();
    throwIfFailed();
  }

  /** Throws the first failure of any record sent so far, if there was one. */
  public void throwIfFailed() {
    Failure failure = firstFailure.get();
    if (failure != null) {
      throw new SendFailedException("could not write " + failed.get() + " record(s), the first to "
          + failure.topic() + ": " + failure.cause().getMessage(), failure.cause());
    }
  }

  /** Records acknowledged so far. */
  public long acknowledged() {
    return acknowledged.get();
  }

  private void completed(RecordMetadata metadata, Exception exception) {
    if (exception == null) {
      acknowledged.incrementAndGet();
      return;
    }
    failed.incrementAndGet();
    String topic = metadata == null ? "(unknown topic)" : metadata.topic() + "-" + metadata.partition();
    firstFailure.compareAndSet(null, new Failure(topic, exception));
  }

  /** Sends what is buffered, waiting at most {@code timeout}; does not throw earlier failures. */
  public void close(Duration timeout) {
    producer.close(timeout);
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(30));
  }

  private record Failure(String topic, Exception cause) {}

  /** A record was not written; the message says where and why. */
  public static final class SendFailedException extends IllegalStateException {
    SendFailedException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
