package org.dpstream.service.decide;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.dpstream.schemas.DecisionPhase;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.decide.follower.ReleasedBandits;

/**
 * The deciders' metrics: decisions by bandit, path ({@code http}, {@code kafka}) and phase; the decision
 * latency by bandit and path (HTTP: from the request's arrival to its answer; Kafka path: from the context
 * record's timestamp to the acknowledgement of its decision), a histogram from 100 us to 10 s; the decision
 * log writes that failed; and the released step each bandit's deciders decide from. Tags hold only configured
 * bandit ids, never request data. A no-op without a registry.
 */
public final class DeciderMetrics {

  /** Where a decision was asked for. */
  public enum Path {
    HTTP, KAFKA;

    String tag() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  static final Duration LATENCY_MIN = Duration.ofNanos(100_000);
  static final Duration LATENCY_MAX = Duration.ofSeconds(10);

  /** Metrics that record nothing (tests, tools). */
  public static final DeciderMetrics NONE = new DeciderMetrics(null);

  private final MeterRegistry registry;
  /** Keys of the per-decision meters: records, not concatenated strings (one lookup per decision, no garbage). */
  private record DecisionKey(String banditId, Path path, DecisionPhase phase) {}

  private record LatencyKey(String banditId, Path path) {}

  private final Map<DecisionKey, Counter> decisions = new ConcurrentHashMap<>();
  private final Map<LatencyKey, Timer> latencies = new ConcurrentHashMap<>();
  private final Map<String, Counter> failedWrites = new ConcurrentHashMap<>();
  private final Map<String, Counter> refusedRewards = new ConcurrentHashMap<>();
  private final Map<String, Counter> failedRewardWrites = new ConcurrentHashMap<>();

  public DeciderMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  /** Registers the released-step gauge of every configured bandit. */
  void follow(BanditRegistry bandits, ReleasedBandits released) {
    if (registry == null) {
      return;
    }
    for (BanditRegistry.Entry entry : bandits.all()) {
      String id = entry.spec().banditId();
      Gauge.builder("dpstream.decider.released.step", released,
              r -> r.latest(id).map(b -> (double) b.step()).orElse(Double.NaN))
          .tag("bandit", id).description("the released step the deciders decide from (read from the releases topic)")
          .register(registry);
    }
  }

  /**
   * Registers the decision counters (every phase) and the latency histogram of every bandit on each path served,
   * before the first request. Registering a histogram takes milliseconds on a cold JVM, and it used to happen under
   * the first real decision, inside the map's lock, while the other event loop's first decision waited on it (24 ms
   * in a JFR recording of a bench start). A series that exists from the start also lets {@code rate()} count the
   * first decisions.
   */
  void serve(BanditRegistry bandits, Collection<Path> paths) {
    if (registry == null) {
      return;
    }
    for (BanditRegistry.Entry entry : bandits.all()) {
      String id = entry.spec().banditId();
      for (Path path : paths) {
        for (DecisionPhase phase : DecisionPhase.values()) {
          decisionCounter(new DecisionKey(id, path, phase));
        }
        latencyTimer(new LatencyKey(id, path));
      }
    }
  }

  /** One decision answered (HTTP) or acknowledged (Kafka path), {@code nanos} after it was asked for. */
  public void decided(String banditId, Path path, DecisionPhase phase, long nanos) {
    if (registry == null) {
      return;
    }
    decisionCounter(new DecisionKey(banditId, path, phase)).increment();
    latencyTimer(new LatencyKey(banditId, path)).record(Math.max(0, nanos), TimeUnit.NANOSECONDS);
  }

  private Counter decisionCounter(DecisionKey key) {
    return decisions.computeIfAbsent(key, k -> Counter.builder("dpstream.decider.decisions")
        .tag("bandit", k.banditId()).tag("path", k.path().tag()).tag("phase", k.phase().name())
        .description("decisions made by the deciders").register(registry));
  }

  private Timer latencyTimer(LatencyKey key) {
    return latencies.computeIfAbsent(key, k -> Timer.builder("dpstream.decider.decision.latency")
        .tag("bandit", k.banditId()).tag("path", k.path().tag())
        .description("from a request to its decision (HTTP: answered; Kafka path: acknowledged)")
        .publishPercentileHistogram().minimumExpectedValue(LATENCY_MIN).maximumExpectedValue(LATENCY_MAX)
        .register(registry));
  }

  /** A reward refused by the deciders (before Kafka), with its reason. */
  public void rewardRefused(String banditId, String reason) {
    if (registry == null) {
      return;
    }
    refusedRewards.computeIfAbsent(banditId + '\u0000' + reason, k -> Counter.builder("dpstream.decider.rewards.refused")
        .tag("bandit", banditId).tag("reason", reason).description("rewards the deciders refused, by reason")
        .register(registry)).increment();
  }

  /** A write of a decision to the decision log failed (the producer gave up on it). */
  public void logWriteFailed(String banditId) {
    if (registry == null) {
      return;
    }
    failedWrites.computeIfAbsent(banditId, id -> Counter.builder("dpstream.decider.log.write.failures")
        .tag("bandit", id).description("decision log writes that failed (the decision is not learnt)")
        .register(registry)).increment();
  }

  /** A write of a reward to dp.rewards failed after it was answered (the producer gave up on it). */
  public void rewardWriteFailed(String banditId) {
    if (registry == null) {
      return;
    }
    failedRewardWrites.computeIfAbsent(banditId, id -> Counter.builder("dpstream.decider.reward.write.failures")
        .tag("bandit", id).description("reward writes that failed after the reward was answered (the reward is lost"
            + " to learning)")
        .register(registry)).increment();
  }
}
