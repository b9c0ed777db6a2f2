package org.dpstream.core.privacy.accounting;

/**
 * How adaptive clipping splits one model's zCDP budget between its prefix sums and the private quantile of
 * the increments' norms, and how it accounts the two together (docs/privacy-layer.md, "Adaptive clipping").
 *
 * <ul>
 *   <li>rho = the largest rho-zCDP whose conversion stays within the model's (epsilon, delta).
 *   <li>The quantile: every block releases a histogram of its increments' norms with Gaussian noise of
 *       standard deviation sigma_h = 1 / sqrt(share rho) per bin (rounded up). Replacing one sample moves
 *       one count from one bin to another, l2 sensitivity sqrt(2), so one histogram is
 *       rho_q = 2 / (2 sigma_h^2) = 1 / sigma_h^2 &lt;= share rho (Bun and Steinke 2016, Proposition 1.6).
 *   <li>The prefix sums: each block's mechanism is calibrated by its own plan to the (epsilon_b, delta) whose
 *       conversion is rho_b = (rho - rho_q)(1 - 2^-20), rounded down (the margin absorbs the last-bit
 *       rounding of a calibration that targets rho_b through epsilon_b).
 *   <li>One sample is in one block: it enters that block's prefix sums and that block's histogram, nothing
 *       else (later blocks see it only through released values). So it costs rho_block(t) + rho_q, composed
 *       in zCDP and converted once: {@link #spent}.
 * </ul>
 *
 * <p>Immutable.
 */
public final class AdaptiveClipBudget {

  private static final double BLOCK_MARGIN = 1 - 0x1p-20;

  /** sqrt(2) rounded up: the histogram's l2 sensitivity under replace-one. */
  static final double HISTOGRAM_SENSITIVITY = Math.nextUp(Math.sqrt(2));

  private final PrivacyBudget budget;
  private final ZcdpConversion conversion;
  private final double rho;
  private final double histogramSigma;
  private final double quantileRho;
  private final double blockRho;
  private final PrivacyBudget blockBudget;

  private AdaptiveClipBudget(PrivacyBudget budget, double share, ZcdpConversion conversion) {
    this.budget = budget;
    this.conversion = conversion;
    this.rho = conversion.maxRho(budget.epsilon(), budget.delta());
    this.histogramSigma = Rounding.up(1 / Math.sqrt(Rounding.down(share * rho)));
    this.quantileRho = ZeroConcentratedDp.gaussianRho(HISTOGRAM_SENSITIVITY, histogramSigma);
    this.blockRho = Rounding.down((rho - quantileRho) * BLOCK_MARGIN);
    this.blockBudget = new PrivacyBudget(conversion.epsilon(blockRho, budget.delta()), budget.delta());
  }

  /**
   * @param budget the model's (epsilon, delta) of one epoch; needs delta &gt; 0
   * @param share the fraction of rho spent on the quantile, in (0, 1/2]
   */
  public static AdaptiveClipBudget of(PrivacyBudget budget, double share) {
    if (!(share > 0 && share <= 0.5)) {
      throw new IllegalArgumentException("clip.budgetShare must be in (0, 0.5], got " + share);
    }
    if (budget.delta() == 0) {
      throw new IllegalArgumentException("adaptive clipping is accounted in zCDP and needs delta > 0, got " + budget);
    }
    return new AdaptiveClipBudget(budget, share, ZcdpConversion.TIGHT);
  }

  public PrivacyBudget budget() {
    return budget;
  }

  public ZcdpConversion conversion() {
    return conversion;
  }

  /** rho: the model's whole zCDP budget (rounded down). */
  public double rho() {
    return rho;
  }

  /** sigma_h of every bin of every block's histogram (rounded up). */
  public double histogramSigma() {
    return histogramSigma;
  }

  /** rho_q: what one block's histogram costs (rounded up), at most share rho. */
  public double quantileRho() {
    return quantileRho;
  }

  /** rho_b: what each block's prefix sums are calibrated for. */
  public double blockRho() {
    return blockRho;
  }

  /** (epsilon_b, delta): the budget each block's plan is given, epsilon_b the conversion of rho_b. */
  public PrivacyBudget blockBudget() {
    return blockBudget;
  }

  /**
   * (epsilon(rho_block + rho_q), delta): what a sample in a block whose prefix sums have cost rho_block so far
   * costs, its histogram included (reserved from the block's first step on, before anything that depends on
   * the histogram is released).
   */
  public PrivacyBudget spent(double blockRhoSoFar) {
    return new PrivacyBudget(conversion.epsilon(Rounding.up(blockRhoSoFar + quantileRho), budget.delta()), budget.delta());
  }

  /** {@code zcdp-<conversion>-adaptive-clip}. */
  public String accountant() {
    return "zcdp-" + conversion.citation() + "-adaptive-clip";
  }

  @Override
  public String toString() {
    return "AdaptiveClipBudget[" + budget + ", rho=" + rho + ", rho_q=" + quantileRho + ", sigma_h=" + histogramSigma
        + ", rho_b=" + blockRho + "]";
  }
}
