package org.dpstream.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.linear.DpLinearPolicy;
import org.dpstream.bandit.linear.DpLinearSpec;
import org.dpstream.core.online.AccountantChoice;
import org.dpstream.core.online.NoiseChoice;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * DP-Linear on one core: {@code decide} (K dot products with the cached ridge solutions) and
 * {@code update} (one clipped contribution, O(d^2), to the chosen arm's pending leaf; every k-th update
 * also releases every arm's statistics through the Gaussian tree, K m keyed Gaussian draws with
 * m = d (d + 3) / 2, and solves K ridge systems by Cholesky, so update/s is the amortised rate). Contexts
 * of unit inf-norm, eps = 1, the Gaussian tree with k = d: it has a steady state, while a factorization
 * release costs O(t m) at release t (the bench's default, 100 releases over T, is cheaper per round still).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DpLinearBenchmark {

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
    byte[] material = new byte[NoiseKey.MINIMUM_BYTES];
    RandomSource.SPLIT_MIX_64.create(6L).nextBytes(material);
    policy = DpLinearPolicy.start(spec, new KeyedNoiseSource(NoiseKey.ofBytes(material)));
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(7L);
    contexts = new double[SAMPLES][dimension];
    rewards = new double[SAMPLES];
    for (int s = 0; s < SAMPLES; s++) {
      double largest = 0;
      for (int j = 0; j < dimension; j++) {
        contexts[s][j] = rng.nextDouble() * 2 - 1;
        largest = Math.max(largest, Math.abs(contexts[s][j]));
      }
      for (int j = 0; j < dimension; j++) {
        contexts[s][j] /= largest;
      }
      rewards[s] = rng.nextDouble() * 2 - 1;
    }
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
