package org.dpstream.bandit.baseline;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.bandit.Decision;

/**
 * The reference every bandit must beat: a uniformly random arm, whatever the context. Learns nothing
 * and so leaks nothing; its randomness is simulation randomness (seeded Commons RNG), for experiments
 * only.
 */
public final class UniformRandomPolicy extends BaselinePolicy {

  public static final String NAME = "random";

  private final UniformRandomProvider random;

  public UniformRandomPolicy(int arms, int dimension, long seed) {
    super(arms, dimension);
    this.random = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
  }

  @Override
  public Decision decide(double[] context) {
    return new Decision(random.nextInt(arms()), Decision.Phase.GREEDY, rounds());
  }

  @Override
  public void update(Decision decision, double[] context, double reward) {
    countRound();
  }

  @Override
  public String name() {
    return NAME;
  }
}
