package org.dpstream.service.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.hdb.JointPrivacyLoss;

/**
 * Per-bandit metrics on Micrometer. Public: decisions by phase (a function of the released round), rewards joined,
 * expired (by policy) and held, rejected inputs, rounds learnt and epsilon spent (in every release). Raw, exported
 * only with {@code metrics.raw: true} ({@link PublicSeriesFilter}): decisions by arm (functions of the users'
 * contexts), the cumulative reward (its differences are single rewards), rejections by reason and the decision
 * latency. docs/operations.md classifies each.
 */
public final class MicrometerBanditMetrics implements BanditMetrics {

  /** The decision-latency histogram's bucket range: from a fast path's 100 us to a stalled commit's 10 s. */
  static final Duration DECISION_LATENCY_MIN = Duration.ofNanos(100_000);
  static final Duration DECISION_LATENCY_MAX = Duration.ofSeconds(10);


  public static final String UNKNOWN_BANDIT = "_unknown";

  private final MeterRegistry registry;
  private final Map<String, PerBandit> bandits = new ConcurrentHashMap<>();
  private final Map<String, Counter> rejected = new ConcurrentHashMap<>();
  private final Map<BanditReason, Counter> rejectedByReason = new ConcurrentHashMap<>();

  private record BanditReason(String bandit, String reason) {}

  public MicrometerBanditMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  private final class PerBandit {
    final String bandit;
    final Map<Decision.Phase, Counter> decisions = new ConcurrentHashMap<>();
    final Map<String, Counter> decisionsByArm = new ConcurrentHashMap<>();
    final Counter held;
    final Counter joined;
    final Counter expiredDropped;
    final Counter expiredImputed;
    final Timer latency;
    final DoubleAdder cumulativeReward = new DoubleAdder();
    final AtomicLong epsilonSpentMicros = new AtomicLong();
    final AtomicLong rounds = new AtomicLong();

    PerBandit(String bandit) {
      this.bandit = bandit;
      joined = Counter.builder("dpstream.bandit.rewards.joined").tag("bandit", bandit)
          .description("rewards joined to their decision (one round each)").register(registry);
      expiredDropped = Counter.builder("dpstream.bandit.rewards.expired").tag("bandit", bandit).tag("policy", "drop")
          .description("decisions whose reward did not come within the timeout").register(registry);
      expiredImputed = Counter.builder("dpstream.bandit.rewards.expired").tag("bandit", bandit).tag("policy", "impute")
          .description("decisions whose reward did not come within the timeout").register(registry);
      latency = Timer.builder("dpstream.bandit.decision.latency").tag("bandit", bandit)
          .description("from the context's record timestamp to its decision (raw data)").publishPercentileHistogram()
          .minimumExpectedValue(DECISION_LATENCY_MIN).maximumExpectedValue(DECISION_LATENCY_MAX).register(registry);
      Gauge.builder("dpstream.bandit.reward.cumulative", cumulativeReward, DoubleAdder::sum).tag("bandit", bandit)
          .description("sum of the joined rewards (raw data)").register(registry);
      held = Counter.builder("dpstream.bandit.rewards.held").tag("bandit", bandit)
          .description("rewards that came before their decision and waited for it (joined or, if it never came,"
              + " rejected as UNKNOWN_REQUEST)")
          .register(registry);
      Gauge.builder("dpstream.bandit.epsilon.spent", epsilonSpentMicros, v -> v.get() / 1e6).tag("bandit", bandit)
          .description("joint privacy loss of the arms' releases so far w.r.t. one user's round, or one person (all of"
              + " its rounds) under privacyUnit by user, as the releases' ledgers state").register(registry);
      Gauge.builder("dpstream.bandit.rounds", rounds, AtomicLong::get).tag("bandit", bandit)
          .description("rounds learnt").register(registry);
    }

    void decided(Decision decision) {
      decisions.computeIfAbsent(decision.phase(), phase -> Counter.builder("dpstream.bandit.decisions")
          .tag("bandit", bandit).tag("phase", phase.name())
          .description("decisions made, by phase").register(registry)).increment();
      decisionsByArm.computeIfAbsent(decision.arm() + "/" + decision.phase(), k -> Counter.builder(
              "dpstream.bandit.decisions.by.arm").tag("bandit", bandit)
          .tag("arm", Integer.toString(decision.arm())).tag("phase", decision.phase().name())
          .description("decisions made, by arm and phase (raw data)").register(registry)).increment();
    }

    void learnt(long round, JointPrivacyLoss spent) {
      rounds.set(round);
      epsilonSpentMicros.set((long) Math.ceil(spent.epsilon() * 1e6));
    }
  }

  private PerBandit bandit(String banditId) {
    return bandits.computeIfAbsent(banditId, PerBandit::new);
  }

  @Override
  public void decided(String banditId, Decision decision, long latencyNanos) {
    PerBandit b = bandit(banditId);
    b.decided(decision);
    b.latency.record(Math.max(0, latencyNanos), TimeUnit.NANOSECONDS);
  }

  @Override
  public void joined(String banditId, double reward, long rounds, JointPrivacyLoss spent) {
    PerBandit b = bandit(banditId);
    b.joined.increment();
    b.cumulativeReward.add(reward);
    b.learnt(rounds, spent);
  }

  @Override
  public void expired(String banditId, boolean imputed, long rounds, JointPrivacyLoss spent) {
    PerBandit b = bandit(banditId);
    (imputed ? b.expiredImputed : b.expiredDropped).increment();
    b.learnt(rounds, spent);
  }

  @Override
  public void rejected(String banditId, String reason) {
    String bandit = banditId == null ? UNKNOWN_BANDIT : banditId;
    rejected.computeIfAbsent(bandit, b -> Counter.builder("dpstream.bandit.rejected").tag("bandit", b)
        .description("bandit inputs sent to the rejected topic, all reasons together").register(registry))
        .increment();
    rejectedByReason.computeIfAbsent(new BanditReason(bandit, reason), k -> Counter.builder(
            "dpstream.bandit.rejected.by.reason").tag("bandit", k.bandit()).tag("reason", k.reason())
        .description("bandit inputs sent to the rejected topic, by reason (raw data)").register(registry))
        .increment();
  }

  @Override
  public void rewardHeld(String banditId) {
    bandit(banditId).held.increment();
  }

  @Override
  public void processingError(String banditId) {
    ProcessingErrors.count(registry, banditId == null ? UNKNOWN_BANDIT : banditId);
  }
}
