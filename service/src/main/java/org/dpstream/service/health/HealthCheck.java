package org.dpstream.service.health;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Liveness and readiness of the service from its {@link StreamsStatus}.
 *
 * <p>Alive: the Kafka Streams client has not failed or stopped and at least one stream thread exists;
 * a supervisor restarts the process when this fails. Ready: the client is {@code RUNNING}, every stream
 * thread is {@code RUNNING} and polled within {@link Policy#pollStall()} (a thread blocked in a
 * processor stops polling), and no stream thread died within {@link Policy#failureWindow()} (a record
 * that kills its thread gets the replacement thread killed again at the same offset; a window longer
 * than one crash-and-rejoin cycle keeps such a loop not ready instead of flickering).
 */
public final class HealthCheck {

  private static final Set<KafkaStreams.State> FINISHED = Set.of(KafkaStreams.State.ERROR,
      KafkaStreams.State.PENDING_ERROR, KafkaStreams.State.NOT_RUNNING, KafkaStreams.State.PENDING_SHUTDOWN);
  private static final String RUNNING = "RUNNING";
  private static final Set<String> GONE = Set.of("DEAD", "PENDING_SHUTDOWN");

  /**
   * @param pollStall a running thread that has not polled for longer is stuck
   * @param failureWindow how long after a stream thread's death the service stays not ready
   */
  public record Policy(Duration pollStall, Duration failureWindow) {
    /** 60 s without a poll (far above any batch's processing time, well below max.poll.interval.ms's 300 s); 2 min after a failure. */
    public static final Policy DEFAULT = new Policy(Duration.ofSeconds(60), Duration.ofMinutes(2));
  }

  /** The outcome of a check and the reasons, one per line. */
  public record Report(boolean ok, List<String> details) {
    public Report {
      details = List.copyOf(details);
    }

    /** The response body: {@code ok} or the failure's name, then the details. */
    public String body(String okWord, String failedWord) {
      StringBuilder body = new StringBuilder(ok ? okWord : failedWord).append('\n');
      details.forEach(line -> body.append(line).append('\n'));
      return body.toString();
    }
  }

  private final StreamsStatus status;
  private final Policy policy;
  private final Clock clock;
  /** A further part of the service that must be ready: its problems (none when ready) and what /ready says then. */
  private record Part(String whenReady, java.util.function.Supplier<List<String>> problems) {}

  /** Further parts of the service that must be ready (e.g. the deciders): each gives its problems, none when ready. */
  private final List<Part> parts;

  public HealthCheck(StreamsStatus status, Policy policy, Clock clock) {
    this(status, policy, clock, List.of());
  }

  private HealthCheck(StreamsStatus status, Policy policy, Clock clock, List<Part> parts) {
    this.status = status;
    this.policy = policy;
    this.clock = clock;
    this.parts = List.copyOf(parts);
  }

  /**
   * This check, also not ready while {@code part} names a problem (its lines go into /ready's body).
   *
   * @param whenReady what /ready's body says of the part when it is ready, e.g. {@code "deciders caught up"}
   */
  public HealthCheck alsoRequiring(String whenReady, java.util.function.Supplier<List<String>> part) {
    List<Part> all = new ArrayList<>(parts);
    all.add(new Part(whenReady, part));
    return new HealthCheck(status, policy, clock, all);
  }

  public HealthCheck(StreamsStatus status) {
    this(status, Policy.DEFAULT, Clock.systemUTC());
  }

  public Report liveness() {
    KafkaStreams.State state = status.state();
    List<StreamsStatus.ThreadStatus> threads = status.threads();
    long live = threads.stream().filter(t -> !GONE.contains(t.state())).count();
    List<String> details = new ArrayList<>();
    details.add("state " + state + ", " + live + " live stream thread(s)");
    boolean ok = !FINISHED.contains(state) && live > 0;
    return new Report(ok, details);
  }

  public Report readiness() {
    Instant now = clock.instant();
    KafkaStreams.State state = status.state();
    List<String> problems = new ArrayList<>();
    if (state != KafkaStreams.State.RUNNING) {
      problems.add("state " + state + " (not RUNNING)");
    }
    List<StreamsStatus.ThreadStatus> threads = status.threads();
    if (threads.isEmpty()) {
      problems.add("no stream threads");
    }
    for (StreamsStatus.ThreadStatus thread : threads) {
      if (!thread.state().equals(RUNNING)) {
        problems.add("thread " + thread.name() + " is " + thread.state() + " (not RUNNING)");
      }
      Optional<Double> sincePoll = thread.secondsSinceLastPoll();
      if (sincePoll.isPresent() && sincePoll.get() > policy.pollStall().toSeconds()) {
        // The limit, not the seconds: how long a thread has been inside a processor is a timing of the data.
        problems.add("thread " + thread.name() + " stalled: no poll for more than " + policy.pollStall().toSeconds()
            + " s");
      }
    }
    status.lastThreadFailure().ifPresent(failure -> {
      Duration since = Duration.between(failure, now);
      if (since.compareTo(policy.failureWindow()) < 0) {
        // The window, not when in it: a failure's time may be a timing of the record that caused it.
        problems.add("a stream thread failed in the last " + policy.failureWindow().toSeconds()
            + " s (ready again when none failed for that long)");
      }
    });
    for (Part part : parts) {
      problems.addAll(part.problems().get());
    }
    if (problems.isEmpty()) {
      StringBuilder ready = new StringBuilder("state RUNNING, " + threads.size() + " stream thread(s) running and polling");
      parts.forEach(part -> ready.append("; ").append(part.whenReady()));
      return new Report(true, List.of(ready.toString()));
    }
    return new Report(false, problems);
  }
}
