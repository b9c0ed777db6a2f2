package org.dpstream.core.privacy.accounting;

import java.util.Objects;

/**
 * The privacy map and noise calibration, in zCDP, of every correlated-noise Gaussian mechanism: the binary
 * tree, the square-root factorization, a BLT. Each releases B (C x + z), z ~ N(0, sigma^2 I_d) per row of its
 * strategy C (for the tree: C has one row per node, B sums a release's nodes), post-processed by B.
 *
 * <p>Privacy: replacing one leaf x_i by x_i' with ||x_i - x_i'||_2 &lt;= S moves C x by C e_i (x_i - x_i'). The
 * rows released by step t are the Gaussian mechanism on C x restricted to them, whose l2 sensitivity is
 * S sqrt(Phi(t)), Phi(t) the squared norm of column i cut to those rows ({@link SensitivityStructure}); so they
 * are rho(t)-zCDP with rho(t) = S^2 Phi(t) / (2 sigma^2) (Bun and Steinke 2016, Proposition 1.6). Leaves chosen
 * adaptively from earlier releases keep the guarantee, C being lower-triangular (Denisov, McMahan, Rush, Smith
 * and Thakurta 2022, Theorem 2.1; for the tree, the paper's Theorem 3.1).
 *
 * <p>Calibration, one for all of them: it takes rho, never epsilon ({@link ZcdpBudget}). sigma =
 * S sqrt(Phi_max / (2 rho)), every operation rounded up, Phi_max the structure's bound over all rows. The map is
 * then tabulated at the structure's checkpoints with the very code the ledger is given ({@link ZcdpBudget#spent}),
 * and sigma is widened, from one part in 2^52 doubling, until the largest cost is within rho and within the
 * ledger's (epsilon, delta) for the doubles computed. rho(t) is rounded up one operation at a time; the epsilons
 * are a running maximum, so the map is non-decreasing even if a numerical conversion were not.
 *
 * <p>Immutable. Strategy descriptions ({@link GaussianTreeCalibration}, the square-root factorization's) add
 * only their structure and names.
 */
public class GaussianZcdpMap implements ZcdpCalibration {

  private static final int FIRST_NUDGE_EXPONENT = -52;
  private static final int MAX_NUDGES = 48;

  private final String accountant;
  private final ZcdpBudget budget;
  private final double l2Sensitivity;
  private final SensitivityStructure structure;
  private final double[] rhoByCheckpoint;
  private final PrivacyBudget[] spentByCheckpoint;
  private final double sigma;

  /**
   * @param accountant the name recorded in the ledger and in releases
   * @param budget what the mechanism may spend, and how the ledger prices it
   * @param l2Sensitivity S, the largest l2 norm of the change of one leaf between neighbouring streams
   *     (replace-one: twice the clip bound of a leaf)
   * @param structure upper bounds on Phi, the squared column norm over the released rows
   */
  protected GaussianZcdpMap(
      String accountant, ZcdpBudget budget, double l2Sensitivity, SensitivityStructure structure) {
    this.accountant = Objects.requireNonNull(accountant, "accountant");
    this.budget = Objects.requireNonNull(budget, "budget");
    ZeroConcentratedDp.requirePositiveFinite(l2Sensitivity, "l2 sensitivity");
    this.l2Sensitivity = l2Sensitivity;
    this.structure = Objects.requireNonNull(structure, "structure");
    this.rhoByCheckpoint = new double[structure.size()];
    this.spentByCheckpoint = new PrivacyBudget[structure.size()];
    double candidate = Rounding.productUp(
        l2Sensitivity, Rounding.sqrtUp(Rounding.quotientUp(structure.largestBound(), 2.0 * budget.rho())));
    for (int nudge = 0; !fillPrivacyMap(candidate); nudge++) {
      if (nudge == MAX_NUDGES) {
        throw new IllegalStateException("could not calibrate sigma within " + budget + "; this is a bug");
      }
      candidate = Rounding.productUp(candidate, 1.0 + Math.scalb(1.0, FIRST_NUDGE_EXPONENT + nudge));
    }
    this.sigma = candidate;
  }

  /** The map of a mechanism described by its sensitivity structure alone (a BLT). */
  public static GaussianZcdpMap calibrate(
      String accountant, ZcdpBudget budget, double l2Sensitivity, SensitivityStructure structure) {
    return new GaussianZcdpMap(accountant, budget, l2Sensitivity, structure);
  }

  /** An upper bound on S^2 / (2 sigma^2), one rounded-up operation at a time. */
  static double rhoPerUnitNorm(double l2Sensitivity, double sigma) {
    double ratio = Rounding.quotientUp(l2Sensitivity, sigma);
    return Rounding.quotientUp(Rounding.productUp(ratio, ratio), 2.0);
  }

  private boolean fillPrivacyMap(double candidate) {
    double perUnitNorm = rhoPerUnitNorm(l2Sensitivity, candidate);
    // The largest cost decides: check it alone first, so a nudge does not cost a whole map.
    if (!budget.admits(Rounding.productUp(perUnitNorm, structure.largestBound()))) {
      return false;
    }
    double previousEpsilon = 0;
    for (int c = 0; c < rhoByCheckpoint.length; c++) {
      double rho = Rounding.productUp(perUnitNorm, structure.bound(c));
      PrivacyBudget spent = budget.spent(rho);
      rhoByCheckpoint[c] = rho;
      spentByCheckpoint[c] =
          spent.epsilon() >= previousEpsilon ? spent : new PrivacyBudget(previousEpsilon, spent.delta());
      previousEpsilon = spentByCheckpoint[c].epsilon();
    }
    return spentByCheckpoint[spentByCheckpoint.length - 1].isWithin(budget.budget());
  }

  @Override
  public final String accountant() {
    return accountant;
  }

  /** The (epsilon, delta) the ledger holds. */
  @Override
  public final PrivacyBudget budget() {
    return budget.budget();
  }

  /** The zCDP budget the calibration targeted. */
  public final ZcdpBudget zcdpBudget() {
    return budget;
  }

  @Override
  public final long horizon() {
    return structure.horizon();
  }

  @Override
  public final ZcdpConversion conversion() {
    return budget.conversion();
  }

  /** rho: what the mechanism may spend (rounded down). */
  public final double rhoBudget() {
    return budget.rho();
  }

  public final double l2Sensitivity() {
    return l2Sensitivity;
  }

  public final SensitivityStructure structure() {
    return structure;
  }

  /** sigma: the standard deviation of every coordinate of every row's noise (rounded up). */
  public final double sigma() {
    return sigma;
  }

  /** rho(t) = S^2 Phi(t') / (2 sigma^2) at the structure's checkpoint t' for t, rounded up. */
  @Override
  public final double rhoAfter(long step) {
    return rhoByCheckpoint[structure.indexOf(step)];
  }

  /** The ledger's price of rho(t) ({@link ZcdpBudget#spent}), non-decreasing in t and within the budget. */
  @Override
  public final PrivacyBudget spentAfter(long step) {
    return spentByCheckpoint[structure.indexOf(step)];
  }

  @Override
  public String toString() {
    return accountant + "[" + budget + ", n=" + horizon() + ", S=" + l2Sensitivity + ", Phi<="
        + structure.largestBound() + ", sigma=" + sigma + "]";
  }
}
