package org.dpstream.bench.jmh;

import org.dpstream.bandit.Decision;
import org.dpstream.bandit.linear.DpLinearPolicy;
import org.dpstream.bandit.linear.DpLinearSpec;
import org.dpstream.core.online.AccountantChoice;
import org.dpstream.core.online.NoiseChoice;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * DP-Linear on one core: {@code decide} (K dot products with the cached ridge solutions) and
 * {@code update} (one clipped contribution, O(d^2), to the chosen arm's pending leaf; every k-th update
 * also releases every arm's statistics through the Gaussian tree, K m keyed Gaussian draws with
 * m = d (d + 3) / 2, and solves K ridge systems by Cholesky, so update/s is the amortised rate). Contexts
 * of unit inf-norm, eps = 1, the Gaussian tree with k = d: it has a steady state, while a factorization
 * release costs O(t m) at release t (the bench's default, 100 releases over T, is cheaper per round still).
 */
public class DpLinearBenchmark extends ThroughputBenchmark {

  private static final int SAMPLES = 1024;

  @Param({"50"})
  public int dimension;

  @Param({"5"})
  public int arms;

  private DpLinearPolicy policy;
  private double[][] contexts;
  private double[] rewards;
  private Decision[] decisions;
  private int next;

  @Setup
  public void setUp() {
    // A horizon no run reaches, so the release epoch never changes during measurement.
    DpLinearSpec spec = new DpLinearSpec("bench", dimension, arms, 1, 1.2, new PrivacyBudget(1, 1e-6), 1L << 40,
        dimension, AccountantChoice.ZCDP, NoiseChoice.CONTINUOUS);
    policy = DpLinearPolicy.start(spec, BenchmarkInputs.keyedSource(6L));
    BenchmarkInputs.BanditSamples samples = BenchmarkInputs.banditSamples(7L, SAMPLES, dimension);
    contexts = samples.contexts();
    rewards = samples.rewards();
    for (int round = 0; round < 2 * dimension; round++) { // two releases, so theta is not all zero
      policy.update(policy.decide(contexts[round]), contexts[round], rewards[round]);
    }
    decisions = new Decision[SAMPLES];
    for (int s = 0; s < SAMPLES; s++) {
      decisions[s] = policy.decide(contexts[s]);
    }
  }

  @Benchmark
  public Decision decide() {
    return policy.decide(contexts[next++ & (SAMPLES - 1)]);
  }

  @Benchmark
  public long update() {
    int s = next++ & (SAMPLES - 1);
    policy.update(decisions[s], contexts[s], rewards[s]);
    return policy.rounds();
  }
}
