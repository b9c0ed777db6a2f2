package org.dpstream.core.privacy.accounting;

/**
 * Gaussian node noise for the binary tree mechanism, accounted with zCDP instead of the paper's basic
 * composition (brief section 8).
 *
 * <p>One leaf with l2 sensitivity S lies in at most h = ceil(log2 n) + 1 nodes, each with independent
 * N(0, sigma^2 I) noise, so the whole tree is h S^2 / (2 sigma^2)-zCDP (Gaussian mechanism plus composition,
 * Bun and Steinke 2016). Calibration takes the largest rho_max whose conversion stays within (epsilon, delta)
 * and sets sigma = S sqrt(h / (2 rho_max)), rounded up. By step t a leaf has been in at most
 * k(t) = min(h, floor(log2 t) + 1) released nodes ({@link TreeHorizon}), so
 * rho(t) = k(t) S^2 / (2 sigma^2), converted with the same conversion and rounded up.
 *
 * <p>The variance is about h times smaller than eq. (3.2)'s, whose basic composition costs a factor h^2.
 * The noise is an ordinary isotropic Gaussian: the sensitivity must be measured (clipped) in l2.
 */
public final class GaussianTreeCalibration implements ZcdpCalibration {

  private static final double SIGMA_NUDGE = 1.0 + 0x1p-30;
  private static final int MAX_NUDGES = 64;

  private final PrivacyBudget budget;
  private final TreeHorizon tree;
  private final double l2Sensitivity;
  private final ZcdpConversion conversion;
  private final double rhoBudget;
  private final double nodeSigma;
  private final double[] rhoByReleasedNodes; // index k - 1
  private final PrivacyBudget[] spentByReleasedNodes; // index k - 1

  private GaussianTreeCalibration(
      PrivacyBudget budget, TreeHorizon tree, double l2Sensitivity, ZcdpConversion conversion) {
    this.budget = budget;
    this.tree = tree;
    this.l2Sensitivity = l2Sensitivity;
    this.conversion = conversion;
    this.rhoBudget = conversion.maxRho(budget.epsilon(), budget.delta());
    int depth = tree.depth();
    this.rhoByReleasedNodes = new double[depth];
    this.spentByReleasedNodes = new PrivacyBudget[depth];
    double sigma = Rounding.up(l2Sensitivity * Math.sqrt(depth / (2.0 * rhoBudget)));
    // The privacy map is evaluated once per k (there are only h distinct values). If rounding made the
    // full tree's cost land a hair above the budget, widen sigma and evaluate again: the check runs on the
    // very numbers the ledger will be given.
    for (int nudge = 0; !fillPrivacyMap(sigma); nudge++) {
      if (nudge == MAX_NUDGES) {
        throw new IllegalStateException("could not calibrate sigma within " + budget + "; this is a bug");
      }
      sigma = Rounding.up(sigma * SIGMA_NUDGE);
    }
    this.nodeSigma = sigma;
  }

  /** Calibration with the tight conversion of Canonne, Kamath and Steinke 2020. */
  public static GaussianTreeCalibration of(PrivacyBudget budget, long horizon, double l2Sensitivity) {
    return of(budget, horizon, l2Sensitivity, ZcdpConversion.TIGHT);
  }

  /**
   * @param budget the (epsilon, delta) of one epoch; needs delta &gt; 0
   * @param horizon n, the leaves of one tree
   * @param l2Sensitivity S, the l2 norm bound of one leaf's contribution (as clipped)
   * @param conversion the zCDP to (epsilon, delta) conversion used both to calibrate and to account
   */
  public static GaussianTreeCalibration of(
      PrivacyBudget budget, long horizon, double l2Sensitivity, ZcdpConversion conversion) {
    ZeroConcentratedDp.requirePositiveFinite(l2Sensitivity, "l2 sensitivity");
    if (budget.delta() == 0) {
      throw new IllegalArgumentException("zCDP accounting needs delta > 0, got " + budget);
    }
    return new GaussianTreeCalibration(budget, new TreeHorizon(horizon), l2Sensitivity, conversion);
  }

  private boolean fillPrivacyMap(double sigma) {
    double perNodeRho = l2Sensitivity * l2Sensitivity / (2.0 * sigma * sigma);
    double previousEpsilon = 0;
    for (int k = 1; k <= tree.depth(); k++) {
      double rho = Rounding.up(k * perNodeRho);
      // Running max: keeps the map non-decreasing even if the 1-D search were not perfectly monotone.
      double epsilon = Math.max(previousEpsilon, conversion.epsilon(rho, budget.delta()));
      rhoByReleasedNodes[k - 1] = rho;
      spentByReleasedNodes[k - 1] = new PrivacyBudget(epsilon, budget.delta());
      previousEpsilon = epsilon;
    }
    return spentByReleasedNodes[tree.depth() - 1].isWithin(budget);
  }

  @Override
  public String accountant() {
    return "zcdp-" + conversion.citation();
  }

  @Override
  public PrivacyBudget budget() {
    return budget;
  }

  @Override
  public long horizon() {
    return tree.capacity();
  }

  public TreeHorizon tree() {
    return tree;
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

  /** sigma: the standard deviation of every coordinate of every node's noise (rounded up). */
  public double nodeSigma() {
    return nodeSigma;
  }

  /** rho(t) = k(t) S^2 / (2 sigma^2), rounded up. */
  public double rhoAfter(long step) {
    return rhoByReleasedNodes[tree.nodesReleasedBy(step) - 1];
  }

  /** (epsilon(rho(t), delta), delta); constant from the step at which k(t) reaches h. */
  @Override
  public PrivacyBudget spentAfter(long step) {
    return spentByReleasedNodes[tree.nodesReleasedBy(step) - 1];
  }

  @Override
  public String toString() {
    return "GaussianTreeCalibration[" + accountant() + ", budget=" + budget + ", n=" + tree.capacity()
        + ", h=" + tree.depth() + ", S=" + l2Sensitivity + ", rho=" + rhoBudget + ", sigma=" + nodeSigma + "]";
  }
}
