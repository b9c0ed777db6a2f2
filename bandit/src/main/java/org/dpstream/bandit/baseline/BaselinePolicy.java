package org.dpstream.bandit.baseline;

import org.dpstream.bandit.BanditPolicy;

/**
 * What the non-private baselines share: a fixed K arms and dimension d, checked once, and the count of
 * rounds learned from. Each baseline adds only how it decides and what it learns.
 */
abstract class BaselinePolicy implements BanditPolicy {

  private final int arms;
  private final int dimension;
  private long rounds;

  BaselinePolicy(int arms, int dimension) {
    if (arms < 1 || dimension < 1) {
      throw new IllegalArgumentException("arms and dimension must be positive: K=" + arms + ", d=" + dimension);
    }
    this.arms = arms;
    this.dimension = dimension;
  }

  @Override
  public final int arms() {
    return arms;
  }

  @Override
  public final int dimension() {
    return dimension;
  }

  @Override
  public final long rounds() {
    return rounds;
  }

  /** Counts one round learned from; called once at the end of every {@link #update}. */
  final void countRound() {
    rounds++;
  }
}
