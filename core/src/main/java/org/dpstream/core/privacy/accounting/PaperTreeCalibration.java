package org.dpstream.core.privacy.accounting;

/**
 * The paper's calibration of the tree mechanism for DP-TOFW: Theorem 3.1, eq. (3.2), via Lemma 2.1.
 *
 * <p>Each node gets the generalized Gaussian of Lemma 2.1 at (epsilon/h, delta/h), h = ceil(log2 n) + 1:
 * for a leaf sensitivity s in the dual norm l_q,
 * <pre>
 *   sigma_+^2 = 2 kappa_q ln(1/(delta/h)) s^2 / (epsilon/h)^2 = 2 kappa_q ln(h/delta) s^2 h^2 / epsilon^2.
 * </pre>
 * The proof of Theorem 3.1 (appendix A.1) bounds the l_q change of one leaf g_i by s = 2(beta D + L), and
 * then the formula is exactly eq. (3.2): sigma_+^2 = 8 h^2 kappa_q ln(h/delta) (beta D + L)^2 / epsilon^2.
 * We checked this against Lemma 2.1 and A.1 and they agree; eq. (3.2) and the proof say the
 * same thing, so there was no disagreement to resolve. sigma_+ is rounded up.
 *
 * <p>Privacy map: a leaf that has been in k(t) released nodes ({@link TreeHorizon}) has spent
 * (k(t) epsilon/h, k(t) delta/h) by basic composition, rounded up and capped at the budget (the cap is
 * exact: k &lt;= h).
 *
 * <p>Restriction beyond the paper: the per-node epsilon/h must be at most 1. Lemma 2.1 as printed
 * (sigma^2 = 2 kappa ln(1/delta) s^2 / epsilon^2, no condition on epsilon) is false for large epsilon: in its
 * simplest case, l_2 with kappa = 1, the exact Gaussian privacy curve (Balle and Wang 2018) at epsilon = 10,
 * delta = 1e-3 gives delta of about 4e-3. The classical Gaussian mechanism is stated for epsilon &lt;= 1,
 * where the formula holds (see the tests), so we only accept that range.
 */
public final class PaperTreeCalibration implements PrivacyCalibration {

  /** Accountant name recorded in ledgers. */
  public static final String ACCOUNTANT = "paper-eq-3.2";

  private final PrivacyBudget budget;
  private final TreeHorizon tree;
  private final NormRegularity regularity;
  private final double leafSensitivity;
  private final double nodeSigma;

  private PaperTreeCalibration(
      PrivacyBudget budget, TreeHorizon tree, NormRegularity regularity, double leafSensitivity) {
    this.budget = budget;
    this.tree = tree;
    this.regularity = regularity;
    this.leafSensitivity = leafSensitivity;
    double h = tree.depth();
    double logHOverDelta = Math.log(h) - Math.log(budget.delta());
    this.nodeSigma = Rounding.up(
        h * leafSensitivity * Math.sqrt(2.0 * regularity.kappa() * logHOverDelta) / budget.epsilon());
  }

  /**
   * eq. (3.2) for DP-TOFW: leaf sensitivity s = 2(beta D + L) in the dual norm (proof of Theorem 3.1).
   *
   * @param smoothness beta, gradients beta-Lipschitz from ||.||_p to ||.||_q
   * @param diameter D, the l_p diameter of the constraint set
   * @param lipschitz L, the l_q bound on one gradient
   */
  public static PaperTreeCalibration forOnlineFrankWolfe(PrivacyBudget budget, long horizon,
      NormRegularity regularity, double smoothness, double diameter, double lipschitz) {
    requireNonNegativeFinite(smoothness, "smoothness beta");
    requireNonNegativeFinite(diameter, "diameter D");
    requireNonNegativeFinite(lipschitz, "lipschitz L");
    return of(budget, horizon, regularity, 2.0 * (smoothness * diameter + lipschitz));
  }

  /**
   * Lemma 2.1 per node at (epsilon/h, delta/h) for a leaf sensitivity s measured in l_q.
   *
   * @throws IllegalArgumentException if delta = 0, or epsilon/h &gt; 1 (see the class comment)
   */
  public static PaperTreeCalibration of(
      PrivacyBudget budget, long horizon, NormRegularity regularity, double leafSensitivity) {
    ZeroConcentratedDp.requirePositiveFinite(leafSensitivity, "leaf sensitivity");
    TreeHorizon tree = new TreeHorizon(horizon);
    if (budget.delta() == 0) {
      throw new IllegalArgumentException("Lemma 2.1 needs delta > 0, got " + budget);
    }
    if (budget.epsilon() > tree.depth()) {
      throw new IllegalArgumentException("per-node epsilon " + budget.epsilon() + "/" + tree.depth()
          + " exceeds 1, outside the range where Lemma 2.1's Gaussian calibration holds");
    }
    return new PaperTreeCalibration(budget, tree, regularity, leafSensitivity);
  }

  private static void requireNonNegativeFinite(double value, String name) {
    if (!(value >= 0) || !Double.isFinite(value)) {
      throw new IllegalArgumentException(name + " must be non-negative and finite, got " + value);
    }
  }

  @Override
  public String accountant() {
    return ACCOUNTANT;
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

  public NormRegularity regularity() {
    return regularity;
  }

  /** s: the dual-norm sensitivity of one leaf. */
  public double leafSensitivity() {
    return leafSensitivity;
  }

  /** sigma_+ of eq. (3.2), the parameter of the generalized Gaussian G_{||.||+}(0, sigma_+^2) per node. */
  public double nodeSigma() {
    return nodeSigma;
  }

  /** (epsilon/h, delta/h): what Lemma 2.1 guarantees for one node (not rounded; informational). */
  public PrivacyBudget perNodeBudget() {
    return new PrivacyBudget(budget.epsilon() / tree.depth(), budget.delta() / tree.depth());
  }

  @Override
  public PrivacyBudget spentAfter(long step) {
    int released = tree.nodesReleasedBy(step);
    return new PrivacyBudget(
        shareOf(budget.epsilon(), released, tree.depth()), shareOf(budget.delta(), released, tree.depth()));
  }

  /** total * k / h rounded up, capped at total (exact since k &lt;= h). */
  private static double shareOf(double total, int k, int h) {
    return k == h ? total : Math.min(total, Rounding.up(total * k / h));
  }

  @Override
  public String toString() {
    return "PaperTreeCalibration[budget=" + budget + ", n=" + tree.capacity() + ", h=" + tree.depth()
        + ", kappa=" + regularity.kappa() + ", s=" + leafSensitivity + ", sigma+=" + nodeSigma + "]";
  }
}
