package org.dpstream.service.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.KafkaStreams;
import org.dpstream.service.health.StreamsStatus.ThreadStatus;
import org.junit.jupiter.api.Test;

class HealthCheckTest {

  private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
  private static final HealthCheck.Policy POLICY = new HealthCheck.Policy(Duration.ofSeconds(60), Duration.ofMinutes(2));

  /** A status fixed by the test. */
  private record FakeStatus(KafkaStreams.State state, List<ThreadStatus> threads, Optional<Instant> lastThreadFailure)
      implements StreamsStatus {}

  private static ThreadStatus polling(String name, double secondsAgo) {
    return new ThreadStatus(name, "RUNNING", Optional.of(secondsAgo));
  }

  private static HealthCheck check(KafkaStreams.State state, List<ThreadStatus> threads, Instant lastFailure) {
    return new HealthCheck(new FakeStatus(state, threads, Optional.ofNullable(lastFailure)), POLICY,
        Clock.fixed(NOW, ZoneOffset.UTC));
  }

  @Test
  void runningThreadsThatPollAreAliveAndReady() {
    HealthCheck health = check(KafkaStreams.State.RUNNING, List.of(polling("t1", 0), polling("t2", 59)), null);
    assertTrue(health.liveness().ok());
    HealthCheck.Report ready = health.readiness();
    assertTrue(ready.ok(), ready.details().toString());
    assertEquals("ready\nstate RUNNING, 2 stream thread(s) running and polling\n", ready.body("ready", "not ready"));
  }

  @Test
  void aPartThatIsNotReadyKeepsTheServiceNotReadyAndSaysWhy() {
    java.util.concurrent.atomic.AtomicReference<List<String>> deciders =
        new java.util.concurrent.atomic.AtomicReference<>(List.of("deciders: not caught up"));
    HealthCheck health = check(KafkaStreams.State.RUNNING, List.of(polling("t1", 0)), null)
        .alsoRequiring("deciders caught up and running", deciders::get);
    assertEquals(new HealthCheck.Report(false, List.of("deciders: not caught up")), health.readiness());
    assertTrue(health.liveness().ok(), "only readiness depends on the deciders");
    deciders.set(List.of());
    assertEquals("ready\nstate RUNNING, 1 stream thread(s) running and polling; deciders caught up and running\n",
        health.readiness().body("ready", "not ready"));
  }

  @Test
  void aThreadThatStoppedPollingIsStalledButTheProcessIsStillAlive() {
    HealthCheck health = check(KafkaStreams.State.RUNNING, List.of(polling("t1", 0), polling("t2", 61)), null);
    HealthCheck.Report ready = health.readiness();
    assertFalse(ready.ok());
    assertEquals(List.of("thread t2 stalled: no poll for more than 60 s"), ready.details());
    assertEquals(ready, check(KafkaStreams.State.RUNNING, List.of(polling("t1", 0), polling("t2", 3_600)), null)
        .readiness(), "how long past the limit is not told");
    assertTrue(health.liveness().ok(), "a stalled thread is not a dead process");
  }

  @Test
  void aRecentThreadFailureKeepsTheServiceNotReadyForTheWindow() {
    List<ThreadStatus> threads = List.of(polling("replacement", 0));
    HealthCheck.Report recent = check(KafkaStreams.State.RUNNING, threads, NOW.minusSeconds(119)).readiness();
    assertFalse(recent.ok());
    assertEquals(List.of("a stream thread failed in the last 120 s (ready again when none failed for that long)"),
        recent.details());
    assertEquals(recent, check(KafkaStreams.State.RUNNING, threads, NOW.minusSeconds(5)).readiness(),
        "when in the window is not told");
    assertTrue(check(KafkaStreams.State.RUNNING, threads, NOW.minusSeconds(120)).readiness().ok(),
        "ready again once the window has passed");
  }

  @Test
  void rebalancingOrAThreadNotRunningIsNotReady() {
    HealthCheck rebalancing = check(KafkaStreams.State.REBALANCING,
        List.of(new ThreadStatus("t1", "PARTITIONS_ASSIGNED", Optional.of(0.0))), null);
    assertEquals(List.of("state REBALANCING (not RUNNING)", "thread t1 is PARTITIONS_ASSIGNED (not RUNNING)"),
        rebalancing.readiness().details());
    assertTrue(rebalancing.liveness().ok());
  }

  @Test
  void aFailedClientOrOneWithoutLiveThreadsIsDead() {
    HealthCheck failed = check(KafkaStreams.State.ERROR, List.of(), null);
    assertFalse(failed.liveness().ok());
    assertFalse(failed.readiness().ok());
    assertEquals("dead\nstate ERROR, 0 live stream thread(s)\n", failed.liveness().body("alive", "dead"));

    HealthCheck allThreadsDead = check(KafkaStreams.State.RUNNING,
        List.of(new ThreadStatus("t1", "DEAD", Optional.empty())), null);
    assertFalse(allThreadsDead.liveness().ok());
  }

  @Test
  void aThreadThatHasNotPolledYetIsNotCalledStalled() {
    HealthCheck starting = check(KafkaStreams.State.RUNNING, List.of(new ThreadStatus("t1", "RUNNING", Optional.empty())),
        null);
    assertTrue(starting.readiness().ok(), starting.readiness().details().toString());
  }
}
