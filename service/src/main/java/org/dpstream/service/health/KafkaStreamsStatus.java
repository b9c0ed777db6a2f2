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

/**
 * The status of the service's real Kafka Streams clients (one, or the models' and the bandits' instances): RUNNING
 * when every client is, otherwise the worst client's state; the threads of all of them. A thread's progress is its main consumer's
 * {@code last-poll-seconds-ago}: a stream thread polls between every batch it processes, even when idle,
 * so a thread blocked inside a processor stops polling. Thread failures are recorded by the service's
 * uncaught-exception handler through {@link #recordThreadFailure}.
 */
public final class KafkaStreamsStatus implements StreamsStatus {

  private static final String CONSUMER_METRICS = "consumer-metrics";
  private static final String LAST_POLL = "last-poll-seconds-ago";

  private final List<KafkaStreams> clients;
  private final AtomicReference<Instant> lastFailure = new AtomicReference<>();

  public KafkaStreamsStatus(KafkaStreams streams) {
    this(List.of(streams));
  }

  public KafkaStreamsStatus(List<KafkaStreams> clients) {
    if (clients.isEmpty()) {
      throw new IllegalArgumentException("no Kafka Streams client");
    }
    this.clients = List.copyOf(clients);
  }

  /** Called when a stream thread dies of an exception (before it is replaced). */
  public void recordThreadFailure(Instant when) {
    lastFailure.set(when);
  }

  @Override
  public KafkaStreams.State state() {
    return combined(clients.stream().map(KafkaStreams::state).toList());
  }

  /**
   * RUNNING when every state is; otherwise the furthest from it in Kafka Streams' order of states (CREATED,
   * REBALANCING, RUNNING, PENDING_SHUTDOWN, NOT_RUNNING, PENDING_ERROR, ERROR) among those that are not RUNNING.
   */
  static KafkaStreams.State combined(List<KafkaStreams.State> states) {
    return states.stream().filter(state -> state != KafkaStreams.State.RUNNING)
        .max(Comparator.naturalOrder()).orElse(KafkaStreams.State.RUNNING);
  }

  @Override
  public List<ThreadStatus> threads() {
    return clients.stream().flatMap(streams -> {
      Map<MetricName, ? extends Metric> metrics = streams.metrics();
      return streams.metadataForLocalThreads().stream()
          .map(thread -> new ThreadStatus(thread.threadName(), thread.threadState(),
              secondsSinceLastPoll(metrics, thread.consumerClientId())));
    }).sorted(Comparator.comparing(ThreadStatus::name)).toList();
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
