package org.dpstream.bandit.baseline;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.bandit.BanditPolicy;
import org.dpstream.bandit.Decision;

/**
 * The reference every bandit must beat: a uniformly random arm, whatever the context. Learns nothing
 * and so leaks nothing; its randomness is simulation randomness (seeded Commons RNG), for experiments
 * only.
 */
public final class UniformRandomPolicy implements BanditPolicy {

  public static final String NAME = "random";

  private final int arms;
  private final int dimension;
  private final UniformRandomProvider random;
  private long rounds;

  public UniformRandomPolicy(int arms, int dimension, long seed) {
    if (arms < 1 || dimension < 1) {
      throw new IllegalArgumentException("arms and dimension must be positive: K=" + arms + ", d=" + dimension);
    }
    this.arms = arms;
    this.dimension = dimension;
    this.random = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
  }

  @Override
  public int arms() {
    return arms;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public long rounds() {
    return rounds;
  }

  @Override
  public Decision decide(double[] context) {
    return new Decision(random.nextInt(arms), Decision.Phase.GREEDY, rounds);
  }

  @Override
  public void update(Decision decision, double[] context, double reward) {
    rounds++;
  }

  @Override
  public String name() {
    return NAME;
  }
}
