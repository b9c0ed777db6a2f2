package org.dpstream.service.health;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.KafkaStreams;

/** What the health checks read from the running service; an interface so tests can fake any state. */
public interface StreamsStatus {

  /** The Kafka Streams client's state. */
  KafkaStreams.State state();

  /** The stream threads that exist now (a replaced thread is gone, its replacement is listed). */
  List<ThreadStatus> threads();

  /** When a stream thread last died of an exception, if ever. */
  Optional<Instant> lastThreadFailure();

  /**
   * One stream thread.
   *
   * @param name the thread's name
   * @param state its Kafka Streams thread state ({@code RUNNING}, {@code PARTITIONS_ASSIGNED}, {@code DEAD}, ...)
   * @param secondsSinceLastPoll how long ago its consumer last polled; empty if not known (not started yet)
   */
  record ThreadStatus(String name, String state, Optional<Double> secondsSinceLastPoll) {}
}
