package org.dpstream.core.privacy.factorization;

import org.dpstream.core.privacy.accounting.GaussianZcdpMap;
import org.dpstream.core.privacy.accounting.Rounding;
import org.dpstream.core.privacy.accounting.SensitivityStructure;
import org.dpstream.core.privacy.accounting.ZcdpBudget;

/**
 * Noise calibration and privacy map of {@link SqrtFactorizationPrefixSum}: {@link GaussianZcdpMap} with the
 * Toeplitz structure of C = A^{1/2} ({@link SensitivityStructure#toeplitz}).
 *
 * <p>The releases of one epoch of n steps are B (C x + z) with C = B = A^{1/2} ({@link PrefixSumSquareRoot})
 * and z ~ N(0, sigma^2 I_d) per step. Column i of C cut to the rows released by step t has squared norm at most
 * sum_{k &lt; t} r_k^2, so rho(t) = S^2 sum_{k &lt; t} r_k^2 / (2 sigma^2), and sigma =
 * S sqrt(sum_{k &lt; n} r_k^2 / (2 rho)). The sums of squares are upper bounds computed with {@link Rounding}
 * (rigorous for any n, not only up to a fixed slack).
 *
 * <p>The map is stored at the structure's checkpoints: every step up to
 * {@value SensitivityStructure#EXACT_STEPS}, then steps about 1/64 apart, up to and including n. At t it is the
 * value of the first checkpoint at or after t: an upper bound (the sum grows with t), looser than the exact map by
 * less than 0.5% of rho (the sum grows by at most ceil(t / 64) r_t^2 &lt;= 1 / (32 pi) between checkpoints, against
 * a sum above 2.3 from t = 64), and it keeps construction at a few hundred conversions instead of n. Steps past
 * the horizon belong to the next epoch ({@link SqrtFactorizationPrefixSum}): spentAfter(t) for t &gt; n is
 * spentAfter(n).
 *
 * <p>Immutable.
 */
public final class SqrtFactorizationCalibration extends GaussianZcdpMap {

  /** The longest horizon accepted: a step costs O(t d) noise draws, so far longer epochs are impractical. */
  public static final long MAX_HORIZON = 1L << 24;

  /** Every step up to this one has its own entry in the privacy map. */
  static final int EXACT_STEPS = SensitivityStructure.EXACT_STEPS;

  private SqrtFactorizationCalibration(ZcdpBudget budget, long horizon, double l2Sensitivity) {
    super("zcdp-" + budget.conversion().citation() + "-sqrt-factorization", budget, l2Sensitivity,
        SensitivityStructure.toeplitz(horizon, SqrtFactorizationCalibration::squaredColumnNormBounds));
  }

  /**
   * @param budget the rho of one epoch, and the ledger's (epsilon, delta)
   * @param horizon n, the steps of one epoch, in [1, {@link #MAX_HORIZON}]
   * @param l2Sensitivity S, the largest l2 norm of the change of one leaf between neighbouring streams
   *     (replace-one: twice the clip bound of a leaf)
   */
  public static SqrtFactorizationCalibration of(ZcdpBudget budget, long horizon, double l2Sensitivity) {
    if (horizon < 1 || horizon > MAX_HORIZON) {
      throw new IllegalArgumentException("horizon must be in [1, " + MAX_HORIZON + "], got " + horizon);
    }
    return new SqrtFactorizationCalibration(budget, horizon, l2Sensitivity);
  }

  /** One pass of the upward-rounded recurrence, recording sum_{k &lt; step} r_k^2 at each checkpoint. */
  private static double[] squaredColumnNormBounds(long[] checkpointSteps) {
    double[] bounds = new double[checkpointSteps.length];
    double coefficient = 1.0; // r_0 is exact
    double sum = 0;
    int next = 0;
    for (long k = 0; next < checkpointSteps.length; k++) {
      if (k > 0) {
        coefficient = PrefixSumSquareRoot.coefficientUpperBoundAfter(coefficient, k);
      }
      sum = Rounding.sumUp(sum, Rounding.productUp(coefficient, coefficient));
      if (k + 1 == checkpointSteps[next]) {
        bounds[next++] = sum;
      }
    }
    return bounds;
  }

  /** sigma: the standard deviation of every coordinate of every step's noise z_i (rounded up). */
  public double noiseSigma() {
    return sigma();
  }
}
