package org.dpstream.bench.bandite2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** bandit-e2e's "learnt" line reads the service's own meters of the bench's bandit, under their names. */
class LearntLineTest {

  @Test
  void theLineGivesTheJoinedRoundsAndTheReleasedStepOfTheBenchBandit() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Counter.builder("dpstream.bandit.rewards.joined").tag("bandit", "bench-bandit").register(registry).increment(12_345);
    Counter.builder("dpstream.bandit.rewards.joined").tag("bandit", "another").register(registry).increment(7);
    AtomicLong step = new AtomicLong(12_000);
    Gauge.builder("dpstream.decider.released.step", step, AtomicLong::get).tag("bandit", "bench-bandit").register(registry);
    assertEquals("learnt when the load ended: 12,345 rounds joined; the deciders' released step 12,000",
        BanditEndToEndCommand.learnt(registry));
  }

  @Test
  void withoutDecidersOrRoundsTheLineSaysSo() {
    assertEquals("learnt when the load ended: 0 rounds joined; the deciders' released step none (no deciders)",
        BanditEndToEndCommand.learnt(new SimpleMeterRegistry()));
  }
}
