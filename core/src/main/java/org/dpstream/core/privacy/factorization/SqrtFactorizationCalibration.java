package org.dpstream.core.privacy.factorization;

import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.Rounding;
import org.dpstream.core.privacy.accounting.ZcdpCalibration;
import org.dpstream.core.privacy.accounting.ZcdpConversion;

/**
 * Noise calibration and privacy map of {@link SqrtFactorizationPrefixSum}, accounted with zCDP.
 *
 * <p>Privacy: the releases of one epoch of n steps are B (C x + z) with C = B = A^{1/2}
 * ({@link PrefixSumSquareRoot}) and z ~ N(0, sigma^2 I_d) per step, i.e. the Gaussian mechanism on C x
 * post-processed by B. Replacing one leaf x_i by x_i' with ||x_i - x_i'||_2 &lt;= S changes C x by
 * C e_i (x_i - x_i'), whose l2 norm is at most S ||C e_i|| &lt;= S ||C e_1||, so the epoch is
 * rho-zCDP with rho = S^2 sum_{k &lt; n} r_k^2 / (2 sigma^2) (Bun and Steinke 2016, Proposition 1.6).
 * By step t only rows 1..t were released, and column i truncated to those rows has squared norm at most
 * sum_{k &lt; t} r_k^2, so rho(t) = S^2 sum_{k &lt; t} r_k^2 / (2 sigma^2).
 *
 * <p>Adaptive inputs: the leaves may depend on earlier releases (online learning feeds back its own
 * output). For a lower-triangular factorization, the Gaussian mechanism on C x keeps its guarantee when each
 * x_t is chosen adaptively from the releases up to t - 1 (Denisov, McMahan, Rush, Smith and Thakurta,
 * "Improved Differential Privacy for SGD via Optimal Private Linear Operators on Adaptive Streams",
 * NeurIPS 2022, Theorem 2.1), so the same rho holds.
 *
 * <p>Calibration: the target rho_max is the largest rho whose conversion stays within (epsilon, delta)
 * (rounded down), and sigma = S sqrt(sum_{k &lt; n} r_k^2 / (2 rho_max)), rounded up. The sums of squares
 * are upper bounds computed with {@link Rounding} (rigorous for any n, not only up to a fixed slack).
 * As in {@code GaussianTreeCalibration}, the map is then evaluated with the very code the ledger will see
 * and sigma is widened until spentAfter(n) is within the budget for the doubles computed.
 *
 * <p>The calibration and the map are those of {@link ToeplitzStrategyCalibration}, with the strategy C = A^{1/2}.
 * The privacy map is stored at checkpoints: every step up to {@value #EXACT_STEPS}, then steps about
 * 1/{@value #CHECKPOINT_SPACING_DIVISOR} apart, up to and including n. {@link #rhoAfter} and
 * {@link #spentAfter} at t return the value of the first checkpoint at or after t: an upper bound (the sum
 * grows with t), looser than the exact map by less than 0.5% of rho (the sum grows by at most
 * ceil(t / 64) r_t^2 &lt;= 1 / (32 pi) between checkpoints, against a sum above 2.3 from t = 64), and it
 * keeps construction at a few hundred conversions instead of n. The epsilons are a running maximum over the
 * checkpoints, so the map is non-decreasing even if the numerical conversion were not.
 *
 * <p>Steps past the horizon belong to the next epoch ({@link SqrtFactorizationPrefixSum}); as for the
 * tree, {@code spentAfter(t)} for t &gt; n is spentAfter(n).
 *
 * <p>Immutable.
 */
public final class SqrtFactorizationCalibration implements ZcdpCalibration {

  /** The longest horizon accepted: a step costs O(t d) noise draws, so far longer epochs are impractical. */
  public static final long MAX_HORIZON = 1L << 24;

  /** Every step up to this one has its own entry in the privacy map. */
  static final int EXACT_STEPS = ToeplitzStrategyCalibration.EXACT_STEPS;

  private final ToeplitzStrategyCalibration calibration;

  private SqrtFactorizationCalibration(ToeplitzStrategyCalibration calibration) {
    this.calibration = calibration;
  }

  /** Calibration with the tight conversion of Canonne, Kamath and Steinke 2020. */
  public static SqrtFactorizationCalibration of(PrivacyBudget budget, long horizon, double l2Sensitivity) {
    return of(budget, horizon, l2Sensitivity, ZcdpConversion.TIGHT);
  }

  /**
   * @param budget the (epsilon, delta) of one epoch; needs delta &gt; 0
   * @param horizon n, the steps of one epoch, in [1, {@link #MAX_HORIZON}]
   * @param l2Sensitivity S, the largest l2 norm of the change of one leaf between neighbouring streams
   *     (replace-one: twice the clip bound of a leaf)
   * @param conversion the zCDP to (epsilon, delta) conversion used both to calibrate and to account
   */
  public static SqrtFactorizationCalibration of(
      PrivacyBudget budget, long horizon, double l2Sensitivity, ZcdpConversion conversion) {
    if (horizon < 1 || horizon > MAX_HORIZON) {
      throw new IllegalArgumentException("horizon must be in [1, " + MAX_HORIZON + "], got " + horizon);
    }
    return new SqrtFactorizationCalibration(ToeplitzStrategyCalibration.of(
        "zcdp-" + conversion.citation() + "-sqrt-factorization", budget, horizon, l2Sensitivity, conversion,
        SqrtFactorizationCalibration::squaredColumnNormBounds));
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

  /** {@code zcdp-<conversion>-sqrt-factorization}, e.g. {@code zcdp-cks20-sqrt-factorization}. */
  @Override
  public String accountant() {
    return calibration.accountant();
  }

  @Override
  public PrivacyBudget budget() {
    return calibration.budget();
  }

  @Override
  public long horizon() {
    return calibration.horizon();
  }

  public double l2Sensitivity() {
    return calibration.l2Sensitivity();
  }

  public ZcdpConversion conversion() {
    return calibration.conversion();
  }

  /** rho_max: the zCDP budget the calibration targeted (rounded down). */
  public double rhoBudget() {
    return calibration.rhoBudget();
  }

  /** sigma: the standard deviation of every coordinate of every step's noise z_i (rounded up). */
  public double noiseSigma() {
    return calibration.noiseSigma();
  }

  /** rho(t) = S^2 sum_{k &lt; t'} r_k^2 / (2 sigma^2) at the first checkpoint t' &gt;= min(t, n), rounded up. */
  public double rhoAfter(long step) {
    return calibration.rhoAfter(step);
  }

  /** (epsilon(rho(t), delta), delta), non-decreasing in t and within the budget for every t. */
  @Override
  public PrivacyBudget spentAfter(long step) {
    return calibration.spentAfter(step);
  }

  @Override
  public String toString() {
    return "SqrtFactorizationCalibration[" + accountant() + ", budget=" + budget() + ", n=" + horizon()
        + ", S=" + l2Sensitivity() + ", rho=" + rhoBudget() + ", sigma=" + noiseSigma() + "]";
  }
}
