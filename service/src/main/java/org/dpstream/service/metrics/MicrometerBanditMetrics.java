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
 * Per-bandit metrics on Micrometer: decisions per arm (and phase), rewards joined, rewards expired (by
 * policy), rejected by reason, decision latency, cumulative reward, rounds learnt and epsilon spent.
 *
 * <p>Cumulative reward is a sum over users' private rewards: like the input, it needs access control
 * (ARCHITECTURE.md 4.6); the epsilon spent and the rounds are public (they are in every release).
 */
public final class MicrometerBanditMetrics implements BanditMetrics {

  /** The decision-latency histogram's bucket range: from a fast path's 100 us to a stalled commit's 10 s. */
  static final Duration DECISION_LATENCY_MIN = Duration.ofNanos(100_000);
  static final Duration DECISION_LATENCY_MAX = Duration.ofSeconds(10);


  public static final String UNKNOWN_BANDIT = "_unknown";

  private final MeterRegistry registry;
  private final Map<String, PerBandit> bandits = new ConcurrentHashMap<>();

  public MicrometerBanditMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  private final class PerBandit {
    final String bandit;
    final Map<String, Counter> decisions = new ConcurrentHashMap<>();
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
          .description("from the context's record timestamp to its decision").publishPercentileHistogram()
          .minimumExpectedValue(DECISION_LATENCY_MIN).maximumExpectedValue(DECISION_LATENCY_MAX).register(registry);
      Gauge.builder("dpstream.bandit.reward.cumulative", cumulativeReward, DoubleAdder::sum).tag("bandit", bandit)
          .description("sum of the joined rewards").register(registry);
      Gauge.builder("dpstream.bandit.epsilon.spent", epsilonSpentMicros, v -> v.get() / 1e6).tag("bandit", bandit)
          .description("joint privacy loss of the arms' releases so far w.r.t. one user").register(registry);
      Gauge.builder("dpstream.bandit.rounds", rounds, AtomicLong::get).tag("bandit", bandit)
          .description("rounds learnt").register(registry);
    }

    Counter decisions(Decision decision) {
      String key = decision.arm() + "/" + decision.phase();
      return decisions.computeIfAbsent(key, k -> Counter.builder("dpstream.bandit.decisions").tag("bandit", bandit)
          .tag("arm", Integer.toString(decision.arm())).tag("phase", decision.phase().name())
          .description("decisions made, by arm and phase").register(registry));
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
    b.decisions(decision).increment();
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
    Counter.builder("dpstream.bandit.rejected")
        .tag("bandit", banditId == null ? UNKNOWN_BANDIT : banditId)
        .tag("reason", reason)
        .description("bandit inputs sent to the rejected topic")
        .register(registry)
        .increment();
  }

  @Override
  public void rewardHeld(String banditId) {
    Counter.builder("dpstream.bandit.rewards.held")
        .tag("bandit", banditId)
        .description("rewards that came before their decision and waited for it (joined or, if it never came,"
            + " rejected as UNKNOWN_REQUEST)")
        .register(registry)
        .increment();
  }

  @Override
  public void processingError(String banditId) {
    ProcessingErrors.count(registry, banditId == null ? UNKNOWN_BANDIT : banditId);
  }
}
