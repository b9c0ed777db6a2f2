package org.dpstream.bench.jmh;

import org.dpstream.bandit.BanditPolicy;
import org.dpstream.bandit.Decision;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

/**
 * {@code decide} and {@code update} of a bandit policy over fixed samples ({@link BenchmarkInputs#banditSamples},
 * seed 7), after a warm-up; each subclass starts its policy (key from seed 6) and says how long it warms up.
 * The decisions applied by {@code update} are made in the setup: a decision may be applied after later rounds.
 */
public abstract class BanditPolicyBenchmark extends ThroughputBenchmark {

  private static final int SAMPLES = 1024;

  private BanditPolicy policy;
  private double[][] contexts;
  private double[] rewards;
  private Decision[] decisions;
  private int next;

  /** The policy to measure, from the subclass's parameters. */
  abstract BanditPolicy start();

  /** Rounds applied before the measurement. */
  abstract int warmUpRounds();


  @Setup
  public void setUp() {
    policy = start();
    BenchmarkInputs.BanditSamples samples = BenchmarkInputs.banditSamples(7L, SAMPLES, policy.dimension());
    contexts = samples.contexts();
    rewards = samples.rewards();
    for (int round = 0; round < warmUpRounds(); round++) {
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
