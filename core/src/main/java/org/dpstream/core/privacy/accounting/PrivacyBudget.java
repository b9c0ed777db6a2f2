package org.dpstream.core.privacy.accounting;

/**
 * An (epsilon, delta) differential-privacy guarantee: a budget to stay within, or the cumulative loss of the
 * releases made so far.
 *
 * @param epsilon positive and finite
 * @param delta in [0, 1)
 */
public record PrivacyBudget(double epsilon, double delta) {

  public PrivacyBudget {
    if (!(epsilon > 0) || !Double.isFinite(epsilon)) {
      throw new IllegalArgumentException("epsilon must be positive and finite, got " + epsilon);
    }
    if (!(delta >= 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in [0, 1), got " + delta);
    }
  }

  /**
   * Whether this guarantee is at least as strong as {@code budget}: both components compared exactly, with
   * no tolerance, because every loss in this package is already rounded to the safe side.
   */
  public boolean isWithin(PrivacyBudget budget) {
    return epsilon <= budget.epsilon && delta <= budget.delta;
  }
}
