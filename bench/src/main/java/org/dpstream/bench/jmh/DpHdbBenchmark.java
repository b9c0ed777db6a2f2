package org.dpstream.bench.jmh;

import org.dpstream.bandit.Decision;
import org.dpstream.bandit.hdb.DpHdbPolicy;
import org.dpstream.bandit.hdb.DpHdbSpec;
import org.dpstream.core.loss.CanonicalLink;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * DP-HDB (Algorithm 3) on one core: {@code decide} (pre-selection and greedy choice, 2K dot products)
 * and {@code update} (one DP-POFW step of every arm: the real sample to one, the synthetic one to the
 * others, each with 2d keyed Laplace draws). Greedy phase (t0 = 1, warm-up done in setup), identity
 * link, contexts of unit inf-norm, eps = 1.
 */
public class DpHdbBenchmark extends ThroughputBenchmark {

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
    policy = DpHdbPolicy.start(spec, BenchmarkInputs.keyedSource(6L));
    BenchmarkInputs.BanditSamples samples = BenchmarkInputs.banditSamples(7L, SAMPLES, dimension);
    contexts = samples.contexts();
    rewards = samples.rewards();
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
