package org.dpstream.service.it;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads a topic from the beginning as a downstream consumer would: read_committed, so records of
 * open or aborted transactions (a crashed instance's) never show. Partitions are assigned, not
 * subscribed, so there is no consumer group to join and nothing is ever skipped.
 */
final class CommittedTopicReader<V> implements AutoCloseable {

  private static final Duration POLL = Duration.ofMillis(100);

  private final String topic;
  private final KafkaConsumer<String, byte[]> consumer;
  private final Function<ConsumerRecord<String, byte[]>, List<ConsumerRecord<String, V>>> decode;
  private final List<ConsumerRecord<String, V>> records = new ArrayList<>();

  CommittedTopicReader(String bootstrapServers, String topic, int partitions, Deserializer<V> values) {
    this(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers), topic, partitions, values);
  }

  /** A reader with these client settings (bootstrap servers, and SASL/SSL on a secured broker). */
  CommittedTopicReader(Map<String, Object> clientConfig, String topic, int partitions, Deserializer<V> values) {
    this(clientConfig, topic, partitions,
        record -> List.of(withValue(record, record.key(), values.deserialize(topic, record.value()))));
  }

  /** A reader that takes each record as {@code decode} reads it: none, one or several records. */
  CommittedTopicReader(Map<String, Object> clientConfig, String topic, int partitions,
      Function<ConsumerRecord<String, byte[]>, List<ConsumerRecord<String, V>>> decode) {
    this.topic = topic;
    this.decode = decode;
    Map<String, Object> settings = new HashMap<>(clientConfig);
    settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    this.consumer = new KafkaConsumer<>(settings, new StringDeserializer(), new ByteArrayDeserializer());
    List<TopicPartition> all = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      all.add(new TopicPartition(topic, p));
    }
    consumer.assign(all);
    consumer.seekToBeginning(all);
  }

  /** {@code record} with this key and value, where it was read. */
  static <V> ConsumerRecord<String, V> withValue(ConsumerRecord<String, byte[]> record, String key, V value) {
    return new ConsumerRecord<>(record.topic(), record.partition(), record.offset(), record.timestamp(),
        record.timestampType(), record.serializedKeySize(), record.serializedValueSize(), key, value,
        record.headers(), record.leaderEpoch());
  }

  /** Everything read so far, in the order read (each partition in offset order). */
  List<ConsumerRecord<String, V>> records() {
    return List.copyOf(records);
  }

  int count() {
    return records.size();
  }

  /** Polls once and returns how many committed records have been read in all. */
  int poll() {
    consumer.poll(POLL).forEach(record -> records.addAll(decode.apply(record)));
    return records.size();
  }

  /**
   * Polls until at least {@code expected} records are read, failing after {@code timeout}, or as soon
   * as {@code stillProducing} says the producer side is gone (then nothing more can come).
   */
  void awaitAtLeast(int expected, Duration timeout, BooleanSupplier stillProducing, Supplier<String> diagnostics) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (poll() < expected) {
      if (!stillProducing.getAsBoolean()) {
        fail(topic + ": the service stopped after " + records.size() + " of " + expected + " committed records\n"
            + diagnostics.get());
      }
      if (System.nanoTime() > deadline) {
        fail(topic + ": only " + records.size() + " of " + expected + " committed records after " + timeout
            + "\n" + diagnostics.get());
      }
    }
  }

  void awaitAtLeast(int expected, Duration timeout) {
    awaitAtLeast(expected, timeout, () -> true, () -> "");
  }

  /**
   * Keeps reading for {@code quiet}: a record published twice (a duplicate after replay) arrives
   * after the expected count is reached, so stopping at that count could hide it.
   */
  void readFor(Duration quiet) {
    long until = System.nanoTime() + quiet.toNanos();
    while (System.nanoTime() < until) {
      poll();
    }
  }

  @Override
  public void close() {
    consumer.close(Duration.ofSeconds(5));
  }
}
