package org.dpstream.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.hdb.DpHdbPolicy;
import org.dpstream.bandit.hdb.DpHdbSpec;
import org.dpstream.core.loss.CanonicalLink;
import org.dpstream.core.loss.DataBounds;
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
 * DP-HDB (Algorithm 3) on one core: {@code decide} (pre-selection and greedy choice, 2K dot products)
 * and {@code update} (one DP-POFW step of every arm: the real sample to one, the synthetic one to the
 * others, each with 2d keyed Laplace draws). Greedy phase (t0 = 1, warm-up done in setup), identity
 * link, contexts of unit inf-norm, eps = 1.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DpHdbBenchmark {

  private static final int SAMPLES = 1024;

  @Param({"50", "784"})
  public int dimension;

  @Param({"2", "10"})
  public int arms;

  private DpHdbPolicy policy;
  private double[][] contexts;
  private double[] rewards;
  private Decision[] decisions;
  private int next;

  @Setup
  public void setUp() {
    // A horizon no run reaches, so the arms' composition epochs never change during measurement.
    DpHdbSpec spec = new DpHdbSpec("bench", dimension, arms, CanonicalLink.IDENTITY, 1, 0.5, 1,
        new PrivacyBudget(1, 1e-6), 1L << 40, new DataBounds(1, 1));
    byte[] material = new byte[NoiseKey.MINIMUM_BYTES];
    RandomSource.SPLIT_MIX_64.create(6L).nextBytes(material);
    policy = DpHdbPolicy.start(spec, new KeyedNoiseSource(NoiseKey.ofBytes(material)));
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
        contexts[s][j] /= largest; // unit inf-norm, as declared in the data bounds
      }
      rewards[s] = rng.nextDouble() * 2 - 1;
    }
    for (int round = 0; round < arms; round++) { // the forced-sampling warm-up, K t0 = K rounds
      policy.update(policy.decide(contexts[round]), contexts[round], rewards[round]);
    }
    decisions = new Decision[SAMPLES];
    for (int s = 0; s < SAMPLES; s++) {
      decisions[s] = policy.decide(contexts[s]); // a decision may be applied after later rounds
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
