package org.dpstream.service.health;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.ThreadMetadata;

/**
 * The status of a real Kafka Streams client. A thread's progress is its main consumer's
 * {@code last-poll-seconds-ago}: a stream thread polls between every batch it processes, even when idle,
 * so a thread blocked inside a processor stops polling. Thread failures are recorded by the service's
 * uncaught-exception handler through {@link #recordThreadFailure}.
 */
public final class KafkaStreamsStatus implements StreamsStatus {

  private static final String CONSUMER_METRICS = "consumer-metrics";
  private static final String LAST_POLL = "last-poll-seconds-ago";

  private final KafkaStreams streams;
  private final AtomicReference<Instant> lastFailure = new AtomicReference<>();

  public KafkaStreamsStatus(KafkaStreams streams) {
    this.streams = streams;
  }

  /** Called when a stream thread dies of an exception (before it is replaced). */
  public void recordThreadFailure(Instant when) {
    lastFailure.set(when);
  }

  @Override
  public KafkaStreams.State state() {
    return streams.state();
  }

  @Override
  public List<ThreadStatus> threads() {
    Map<MetricName, ? extends Metric> metrics = streams.metrics();
    return streams.metadataForLocalThreads().stream()
        .sorted(Comparator.comparing(ThreadMetadata::threadName))
        .map(thread -> new ThreadStatus(thread.threadName(), thread.threadState(),
            secondsSinceLastPoll(metrics, thread.consumerClientId())))
        .toList();
  }

  private static Optional<Double> secondsSinceLastPoll(Map<MetricName, ? extends Metric> metrics, String clientId) {
    return metrics.entrySet().stream()
        .filter(e -> e.getKey().name().equals(LAST_POLL) && e.getKey().group().equals(CONSUMER_METRICS)
            && clientId.equals(e.getKey().tags().get("client-id")))
        .map(e -> e.getValue().metricValue())
        .filter(Number.class::isInstance)
        .map(value -> ((Number) value).doubleValue())
        .findFirst();
  }

  @Override
  public Optional<Instant> lastThreadFailure() {
    return Optional.ofNullable(lastFailure.get());
  }
}
