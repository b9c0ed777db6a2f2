package org.dpstream.demo;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.dpstream.service.kafka.CheckedProducer;

/**
 * Feeds dp.samples: the models' synthetic streams interleaved round-robin, keyed by model id, in the
 * mix of {@link SampleEncoding}s, with the {@link MalformedSamples} spread evenly through the stream.
 * Sends at a given rate or as fast as the broker takes them, until every model has its samples, the
 * deadline passes or a stop is requested.
 */
final class SampleProducer implements AutoCloseable {

  /**
   * One model's generator.
   *
   * @param persons who sends each sample, for a person-level model; null for an event-level one (no userId)
   */
  record ModelStream(String modelId, SyntheticRegression generator, DemoPersons persons) {}

  /** What was sent: valid samples per model, and bad records. */
  record Sent(Map<String, Long> samplesPerModel, int malformed) {
    long totalSamples() {
      return samplesPerModel.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  private final CheckedProducer<String, byte[]> producer;
  private final String topic;
  private final AtomicLong sentSoFar = new AtomicLong();

  SampleProducer(Map<String, Object> clientConfig, String topic) {
    // Batches of a few ms: the rate is then limited by the service, not by one request per record.
    this.producer = CheckedProducer.create(clientConfig, Map.of(
            ProducerConfig.LINGER_MS_CONFIG, 5,
            ProducerConfig.CLIENT_ID_CONFIG, "dpstream-demo-producer"),
        new StringSerializer(), new ByteArraySerializer());
    this.topic = topic;
  }

  /**
   * Sends until done; blocking. Returns once every record sent is acknowledged.
   *
   * @param samplesPerModel samples to send each model
   * @param samplesPerSecond total rate over all models; 0 or less for as fast as possible
   * @param deadlineNanos {@link System#nanoTime()} after which no more samples are sent
   * @param stopRequested polled between records
   * @throws CheckedProducer.SendFailedException if a record could not be written, with the reason
   */
  Sent run(List<ModelStream> streams, List<MalformedSamples.KeyedBytes> malformed, long samplesPerModel,
      double samplesPerSecond, long deadlineNanos, BooleanSupplier stopRequested) {
    Map<String, Long> perModel = new LinkedHashMap<>();
    streams.forEach(s -> perModel.put(s.modelId(), 0L));
    long malformedEvery = Math.max(1, samplesPerModel / (malformed.size() + 1));
    int malformedSent = 0;
    long started = System.nanoTime();
    sending:
    for (long index = 0; index < samplesPerModel; index++) {
      if (index > 0 && index % malformedEvery == 0 && malformedSent < malformed.size()) {
        MalformedSamples.KeyedBytes bad = malformed.get(malformedSent++);
        producer.send(new ProducerRecord<>(topic, bad.key(), bad.value()));
      }
      SampleEncoding encoding = SampleEncoding.forIndex(index);
      for (ModelStream stream : streams) {
        if (System.nanoTime() > deadlineNanos || stopRequested.getAsBoolean()) {
          break sending;
        }
        String userId = stream.persons() == null ? null : stream.persons().personOf(index);
        producer.send(new ProducerRecord<>(topic, stream.modelId(), encoding.encode(stream.generator().next(), userId)));
        perModel.merge(stream.modelId(), 1L, Long::sum);
        pace(sentSoFar.incrementAndGet(), samplesPerSecond, started);
      }
    }
    producer.flush();
    return new Sent(perModel, malformedSent);
  }

  /** Samples handed to the producer so far. */
  long sentSoFar() {
    return sentSoFar.get();
  }

  /** Sleeps while ahead of the schedule {@code sent / rate}. */
  private static void pace(long sent, double samplesPerSecond, long started) {
    if (samplesPerSecond <= 0) {
      return;
    }
    long due = started + (long) (sent / samplesPerSecond * 1e9);
    long ahead = due - System.nanoTime();
    if (ahead > 0) {
      LockSupport.parkNanos(ahead);
    }
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(10));
  }
}
