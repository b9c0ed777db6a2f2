package org.dpstream.core.privacy.factorization;

import java.util.Arrays;
import java.util.Objects;
import java.util.stream.LongStream;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.Rounding;
import org.dpstream.core.privacy.accounting.ZcdpCalibration;
import org.dpstream.core.privacy.accounting.ZcdpConversion;
import org.dpstream.core.privacy.accounting.ZeroConcentratedDp;

/**
 * Noise calibration and privacy map, in zCDP, of a factorization A = B C of the prefix-sum matrix whose
 * strategy C is lower-triangular Toeplitz with first coefficient 1 (the square root, a BLT): the releases
 * are B (C x + z) with z ~ N(0, sigma^2 I_d) per step.
 *
 * <p>Privacy: the releases of one epoch of n steps are the Gaussian mechanism on C x post-processed by B.
 * Replacing one leaf x_i by x_i' with ||x_i - x_i'||_2 &lt;= S changes C x by C e_i (x_i - x_i'), of l2
 * norm at most S ||C e_i|| &lt;= S ||C e_1|| (a Toeplitz column is a truncation of the first), so the epoch
 * is rho-zCDP with rho = S^2 ||C e_1||^2 / (2 sigma^2) (Bun and Steinke 2016, Proposition 1.6). By step t
 * only rows 1..t were released, and column i truncated to them has squared norm at most
 * F(t) = sum_{k &lt; t} c_k^2, so rho(t) = S^2 F(t) / (2 sigma^2). The guarantee holds for leaves chosen
 * adaptively from earlier releases, C being lower-triangular (Denisov, McMahan, Rush, Smith and Thakurta,
 * NeurIPS 2022, Theorem 2.1).
 *
 * <p>Calibration: rho_max is the largest rho whose conversion stays within (epsilon, delta) (rounded down),
 * and sigma = S sqrt(F(n) / (2 rho_max)), rounded up, from rigorous upper bounds on F given by the strategy
 * ({@link SquaredColumnNorms}). The map is then evaluated with the very code the ledger will see and sigma
 * is widened until spentAfter(n) is within the budget for the doubles computed.
 *
 * <p>The map is stored at checkpoints: every step up to {@value #EXACT_STEPS}, then steps about
 * 1/{@value #CHECKPOINT_SPACING_DIVISOR} apart, up to and including n. {@link #rhoAfter} and
 * {@link #spentAfter} at t return the value of the first checkpoint at or after t, an upper bound since F
 * grows with t. The epsilons (and the bounds on F) are running maxima over the checkpoints, so the map is
 * non-decreasing even if a numerical conversion or bound were not. Steps past the horizon belong to the next
 * epoch: spentAfter(t) for t &gt; n is spentAfter(n).
 *
 * <p>Immutable.
 */
public final class ToeplitzStrategyCalibration implements ZcdpCalibration {

  /** Upper bounds on F(t) = sum_{k &lt; t} c_k^2 of the exact strategy the mechanism applies. */
  @FunctionalInterface
  public interface SquaredColumnNorms {
    /**
     * @param steps increasing, from 1
     * @return for each step t, an upper bound on F(t), rounded up (rigorous, not to nearest)
     */
    double[] upperBoundsAt(long[] steps);
  }

  /** Every step up to this one has its own entry in the privacy map. */
  static final int EXACT_STEPS = 64;

  /** Beyond {@link #EXACT_STEPS}, consecutive checkpoints t &lt; t' satisfy t' - t = ceil(t / this). */
  static final int CHECKPOINT_SPACING_DIVISOR = 64;

  /** The first relative widening of sigma; each further one doubles, so little budget is left unused. */
  private static final int FIRST_NUDGE_EXPONENT = -40;
  private static final int MAX_NUDGES = 48;

  private final String accountant;
  private final PrivacyBudget budget;
  private final long horizon;
  private final double l2Sensitivity;
  private final ZcdpConversion conversion;
  private final double rhoBudget;
  private final double noiseSigma;
  private final long[] checkpointSteps;
  private final double[] squaredColumnNormBounds; // by checkpoint: >= F(step)
  private final double[] rhoByCheckpoint;
  private final PrivacyBudget[] spentByCheckpoint;

  private ToeplitzStrategyCalibration(String accountant, PrivacyBudget budget, long horizon, double l2Sensitivity,
      ZcdpConversion conversion, SquaredColumnNorms norms) {
    this.accountant = accountant;
    this.budget = budget;
    this.horizon = horizon;
    this.l2Sensitivity = l2Sensitivity;
    this.conversion = conversion;
    this.rhoBudget = conversion.maxRho(budget.epsilon(), budget.delta());
    this.checkpointSteps = checkpointSteps(horizon);
    this.squaredColumnNormBounds = runningMaximum(norms.upperBoundsAt(checkpointSteps.clone()));
    if (squaredColumnNormBounds.length != checkpointSteps.length) {
      throw new IllegalStateException("the strategy returned " + squaredColumnNormBounds.length + " bounds for "
          + checkpointSteps.length + " steps; this is a bug");
    }
    this.rhoByCheckpoint = new double[checkpointSteps.length];
    this.spentByCheckpoint = new PrivacyBudget[checkpointSteps.length];
    double atHorizon = squaredColumnNormBounds[checkpointSteps.length - 1];
    if (!(atHorizon >= 1) || !Double.isFinite(atHorizon)) {
      throw new IllegalArgumentException("the strategy's squared column norm must be finite and >= 1, got " + atHorizon);
    }
    double sigma = Rounding.productUp(
        l2Sensitivity, Rounding.sqrtUp(Rounding.quotientUp(atHorizon, 2.0 * rhoBudget)));
    // Rounding up (here and in the conversion) can make the cost at n land a hair above rho_max; widen sigma
    // and evaluate again, on the very numbers the ledger will be given.
    for (int nudge = 0; !fillPrivacyMap(sigma); nudge++) {
      if (nudge == MAX_NUDGES) {
        throw new IllegalStateException("could not calibrate sigma within " + budget + "; this is a bug");
      }
      sigma = Rounding.productUp(sigma, 1.0 + Math.scalb(1.0, FIRST_NUDGE_EXPONENT + nudge));
    }
    this.noiseSigma = sigma;
  }

  /**
   * @param accountant the name recorded in the ledger and in releases
   * @param budget the (epsilon, delta) of one epoch; needs delta &gt; 0
   * @param horizon n, the steps of one epoch, at least 1
   * @param l2Sensitivity S, the largest l2 norm of the change of one leaf between neighbouring streams
   *     (replace-one: twice the clip bound of a leaf)
   * @param conversion the zCDP to (epsilon, delta) conversion used both to calibrate and to account
   * @param norms rigorous upper bounds on the strategy's truncated squared column norms
   */
  public static ToeplitzStrategyCalibration of(String accountant, PrivacyBudget budget, long horizon,
      double l2Sensitivity, ZcdpConversion conversion, SquaredColumnNorms norms) {
    Objects.requireNonNull(accountant, "accountant");
    Objects.requireNonNull(norms, "norms");
    if (!(l2Sensitivity > 0) || !Double.isFinite(l2Sensitivity)) {
      throw new IllegalArgumentException("l2 sensitivity must be positive and finite, got " + l2Sensitivity);
    }
    if (budget.delta() == 0) {
      throw new IllegalArgumentException("zCDP accounting needs delta > 0, got " + budget);
    }
    if (horizon < 1) {
      throw new IllegalArgumentException("horizon must be at least 1, got " + horizon);
    }
    return new ToeplitzStrategyCalibration(accountant, budget, horizon, l2Sensitivity, conversion, norms);
  }

  /** 1, 2, .., EXACT_STEPS, then geometric spacing, and always n last. */
  private static long[] checkpointSteps(long horizon) {
    LongStream.Builder steps = LongStream.builder();
    long step = 1;
    while (step < horizon) {
      steps.add(step);
      step += step < EXACT_STEPS ? 1 : (step + CHECKPOINT_SPACING_DIVISOR - 1) / CHECKPOINT_SPACING_DIVISOR;
    }
    steps.add(horizon);
    return steps.build().toArray();
  }

  private static double[] runningMaximum(double[] bounds) {
    double[] monotone = bounds.clone();
    for (int c = 1; c < monotone.length; c++) {
      monotone[c] = Math.max(monotone[c - 1], monotone[c]);
    }
    return monotone;
  }

  private boolean fillPrivacyMap(double sigma) {
    double rhoPerUnitNorm = ZeroConcentratedDp.gaussianRho(l2Sensitivity, sigma); // S^2 / (2 sigma^2), up
    int last = checkpointSteps.length - 1;
    // The horizon decides: check it alone first, so a nudge does not cost a whole map.
    double rhoAtHorizon = Rounding.productUp(rhoPerUnitNorm, squaredColumnNormBounds[last]);
    if (conversion.epsilon(rhoAtHorizon, budget.delta()) > budget.epsilon()) {
      return false;
    }
    double previousEpsilon = 0;
    for (int c = 0; c <= last; c++) {
      double rho = Rounding.productUp(rhoPerUnitNorm, squaredColumnNormBounds[c]);
      double epsilon = Math.max(previousEpsilon, conversion.epsilon(rho, budget.delta()));
      rhoByCheckpoint[c] = rho;
      spentByCheckpoint[c] = new PrivacyBudget(epsilon, budget.delta());
      previousEpsilon = epsilon;
    }
    return spentByCheckpoint[last].isWithin(budget);
  }

  /** Index of the first checkpoint at or after min(t, n). */
  private int checkpointFor(long step) {
    if (step < 1) {
      throw new IllegalArgumentException("step must be at least 1, got " + step);
    }
    int found = Arrays.binarySearch(checkpointSteps, Math.min(step, horizon));
    return found >= 0 ? found : -found - 1;
  }

  @Override
  public String accountant() {
    return accountant;
  }

  @Override
  public PrivacyBudget budget() {
    return budget;
  }

  @Override
  public long horizon() {
    return horizon;
  }

  public double l2Sensitivity() {
    return l2Sensitivity;
  }

  public ZcdpConversion conversion() {
    return conversion;
  }

  /** rho_max: the zCDP budget the calibration targeted (rounded down). */
  public double rhoBudget() {
    return rhoBudget;
  }

  /** sigma: the standard deviation of every coordinate of every step's noise z_i (rounded up). */
  public double noiseSigma() {
    return noiseSigma;
  }

  /** rho(t) = S^2 F(t') / (2 sigma^2) at the first checkpoint t' &gt;= min(t, n), rounded up. */
  public double rhoAfter(long step) {
    return rhoByCheckpoint[checkpointFor(step)];
  }

  /** (epsilon(rho(t), delta), delta), non-decreasing in t and within the budget for every t. */
  @Override
  public PrivacyBudget spentAfter(long step) {
    return spentByCheckpoint[checkpointFor(step)];
  }

  @Override
  public String toString() {
    return accountant + "[budget=" + budget + ", n=" + horizon + ", S=" + l2Sensitivity + ", rho=" + rhoBudget
        + ", sigma=" + noiseSigma + "]";
  }
}
