package org.dpstream.core.privacy.audit;

import org.apache.commons.statistics.distribution.BetaDistribution;

/**
 * Exact one-sided Clopper-Pearson confidence bounds for a binomial probability.
 *
 * <p>For k hits in n runs, the lower bound at level a is the p with P[Bin(n, p) >= k] = a, which is
 * the a-quantile of Beta(k, n - k + 1); the upper bound is the p with P[Bin(n, p) <= k] = a, the
 * (1 - a)-quantile of Beta(k + 1, n - k). Each holds with probability at least 1 - a for every true p
 * ("exact" means this guarantee is not asymptotic; the bounds are conservative, never anti-conservative).
 * The usual two-sided 1 - alpha interval is the pair of one-sided bounds at a = alpha / 2.
 */
final class ClopperPearson {

  private ClopperPearson() {}

  /**
   * The lower confidence bound on p at one-sided level {@code a}: 0 when there are no hits.
   *
   * @param a probability that the bound exceeds the true p, in (0, 1)
   */
  static double lowerBound(EventFrequency frequency, double a) {
    requireLevel(a);
    int k = frequency.hits();
    if (k == 0) {
      return 0;
    }
    return BetaDistribution.of(k, frequency.runs() - k + 1.0).inverseCumulativeProbability(a);
  }

  /**
   * The upper confidence bound on p at one-sided level {@code a}: 1 when every run hit.
   *
   * @param a probability that the bound is below the true p, in (0, 1)
   */
  static double upperBound(EventFrequency frequency, double a) {
    requireLevel(a);
    int k = frequency.hits();
    int n = frequency.runs();
    if (k == n) {
      return 1;
    }
    // The survival-side inverse keeps full precision when the bound is close to 0, the common case
    // for the rare event of an audit.
    return BetaDistribution.of(k + 1.0, n - k).inverseSurvivalProbability(a);
  }

  private static void requireLevel(double a) {
    if (!(a > 0 && a < 1)) {
      throw new IllegalArgumentException("level must be in (0, 1): " + a);
    }
  }
}
