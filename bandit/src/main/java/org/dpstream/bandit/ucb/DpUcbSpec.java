package org.dpstream.bandit.ucb;

import java.util.Objects;
import org.dpstream.bandit.env.EnvironmentBounds;
import org.dpstream.core.privacy.accounting.PrivacyBudget;

/**
 * Everything DP-UCB is configured with. All values must be fixed before any data is seen (they are
 * public): the clipping bounds define the sensitivity, the others the confidence width.
 *
 * @param banditId names the noise streams ({@code dp-ucb} purpose, stream {@code banditId/arm-a})
 * @param arms K &gt;= 2
 * @param dimension d &gt;= 1
 * @param horizon T: the rounds one tree covers and the policy accepts
 * @param budget (epsilon, delta) for the whole horizon, delta &gt; 0 (zCDP accounting)
 * @param contextL2Bound L: contexts are scaled down to ||x||_2 &lt;= L before they enter the statistics
 * @param rewardBound B: rewards are clipped to [-B, B]
 * @param rewardNoiseScale R: the reward noise is assumed R-sub-Gaussian (confidence width only)
 * @param parameterL2Bound S: ||theta*_a||_2 &lt;= S is assumed (confidence width only)
 * @param ridge lambda &gt; 0 added to the shifted Gram matrix, as in non-private LinUCB, so it is well
 *     conditioned even when the privacy noise is negligible
 * @param failureProbability alpha in (0, 1): the confidence bounds hold with probability 1 - alpha
 */
public record DpUcbSpec(
    String banditId,
    int arms,
    int dimension,
    long horizon,
    PrivacyBudget budget,
    double contextL2Bound,
    double rewardBound,
    double rewardNoiseScale,
    double parameterL2Bound,
    double ridge,
    double failureProbability) {

  /** LinUCB's customary lambda. */
  public static final double DEFAULT_RIDGE = 1.0;
  /** Shariff and Sheffet state their bounds for a generic alpha; 0.05 is the usual choice. */
  public static final double DEFAULT_FAILURE_PROBABILITY = 0.05;

  public DpUcbSpec {
    Objects.requireNonNull(banditId, "banditId");
    Objects.requireNonNull(budget, "budget");
    if (arms < 2 || dimension < 1 || horizon < 1) {
      throw new IllegalArgumentException(
          "need K >= 2, d >= 1, T >= 1: K=" + arms + ", d=" + dimension + ", T=" + horizon);
    }
    if (budget.delta() == 0) {
      throw new IllegalArgumentException("DP-UCB's Gaussian tree needs delta > 0, got " + budget);
    }
    requirePositiveFinite(contextL2Bound, "contextL2Bound");
    requirePositiveFinite(rewardBound, "rewardBound");
    requirePositiveFinite(rewardNoiseScale, "rewardNoiseScale");
    requirePositiveFinite(parameterL2Bound, "parameterL2Bound");
    requirePositiveFinite(ridge, "ridge");
    if (!(failureProbability > 0 && failureProbability < 1)) {
      throw new IllegalArgumentException("failureProbability must be in (0, 1), got " + failureProbability);
    }
  }

  /** A spec with the environment's public bounds, the default ridge and alpha. */
  public static DpUcbSpec forEnvironment(
      String banditId, int arms, int dimension, long horizon, PrivacyBudget budget, EnvironmentBounds bounds) {
    return new DpUcbSpec(banditId, arms, dimension, horizon, budget, bounds.contextL2(), bounds.reward(),
        bounds.rewardNoiseScale(), bounds.parameterL2(), DEFAULT_RIDGE, DEFAULT_FAILURE_PROBABILITY);
  }

  /** The same spec with another budget (e.g. a huge one, for noise-free tests). */
  public DpUcbSpec withBudget(PrivacyBudget other) {
    return new DpUcbSpec(banditId, arms, dimension, horizon, other, contextL2Bound, rewardBound, rewardNoiseScale,
        parameterL2Bound, ridge, failureProbability);
  }

  private static void requirePositiveFinite(double value, String name) {
    if (!(value > 0) || !Double.isFinite(value)) {
      throw new IllegalArgumentException(name + " must be positive and finite, got " + value);
    }
  }
}
