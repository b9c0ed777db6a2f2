package org.dpstream.core.privacy.accounting;

/**
 * How adaptive clipping splits one model's zCDP budget between its prefix sums and the private quantile of
 * the increments' norms, and how it accounts the two together (docs/privacy-layer.md, "Adaptive clipping").
 * Everything here is in rho; (epsilon, delta) appears only where the ledger prices a cost.
 *
 * <ul>
 *   <li>rho = the model's zCDP budget, converted from its (epsilon, delta) where the spec is read.
 *   <li>The quantile: every block releases a histogram of its increments' norms with Gaussian noise of
 *       standard deviation sigma_h = 1 / sqrt(share rho) per bin (rounded up). Replacing one sample moves
 *       one count from one bin to another, l2 sensitivity sqrt(2), so one histogram is
 *       rho_q = 2 / (2 sigma_h^2) = 1 / sigma_h^2 &lt;= share rho (Bun and Steinke 2016, Proposition 1.6).
 *   <li>The prefix sums: each block's mechanism is calibrated by its own plan for the rest,
 *       rho_b = rho - rho_q rounded down so that rho_b (+) rho_q &lt;= rho with the sum rounded up
 *       ({@link ZcdpBudget#beside}).
 *   <li>One sample is in one block: it enters that block's prefix sums and that block's histogram, nothing
 *       else (later blocks see it only through released values). So it costs rho_block(t) + rho_q, composed
 *       in zCDP and converted once: {@link #spent}, the price the blocks' own maps give the ledger.
 * </ul>
 *
 * <p>Immutable.
 */
public final class AdaptiveClipBudget {

  /** sqrt(2) rounded up: the histogram's l2 sensitivity under replace-one. */
  static final double HISTOGRAM_SENSITIVITY = Math.nextUp(Math.sqrt(2));

  private final ZcdpBudget model;
  private final double histogramSigma;
  private final double quantileRho;
  private final ZcdpBudget blocks;

  private AdaptiveClipBudget(ZcdpBudget model, double share, int participations) {
    this.model = model;
    // A person's k samples move at most k counts of one histogram from one bin to another: l2 sensitivity
    // k sqrt(2), so sigma_h grows by k (k = 1 computes exactly what the event-level budget always did).
    this.histogramSigma = Rounding.up((double) participations / Math.sqrt(Rounding.down(share * model.rho())));
    double sensitivity = participations == 1
        ? HISTOGRAM_SENSITIVITY : Rounding.productUp(participations, HISTOGRAM_SENSITIVITY);
    this.quantileRho = ZeroConcentratedDp.gaussianRho(sensitivity, histogramSigma);
    this.blocks = model.beside(quantileRho);
  }

  /**
   * @param budget the model's zCDP budget of one epoch
   * @param share the fraction of rho spent on the quantile, in (0, 1/2]
   */
  public static AdaptiveClipBudget of(ZcdpBudget budget, double share) {
    return of(budget, share, 1);
  }

  /**
   * The split for a person with up to {@code participations} samples: the histograms' noise grows by k. A person's
   * samples in several blocks cost (k_b / k)^2 of a histogram's rho in block b, at most one rho_q in all.
   */
  public static AdaptiveClipBudget of(ZcdpBudget budget, double share, int participations) {
    if (!(share > 0 && share <= 0.5)) {
      throw new IllegalArgumentException("clip.budgetShare must be in (0, 0.5], got " + share);
    }
    if (participations < 1) {
      throw new IllegalArgumentException("participations must be at least 1, got " + participations);
    }
    return new AdaptiveClipBudget(budget, share, participations);
  }

  /** The model's (epsilon, delta), as its ledger holds it. */
  public PrivacyBudget budget() {
    return model.budget();
  }

  public ZcdpConversion conversion() {
    return model.conversion();
  }

  /** rho: the model's whole zCDP budget (rounded down). */
  public double rho() {
    return model.rho();
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
    return blocks.rho();
  }

  /** The budget each block's plan is calibrated for: rho_b, with rho_q spent beside it on the same samples. */
  public ZcdpBudget blockBudget() {
    return blocks;
  }

  /**
   * (epsilon(rho_block (+) rho_q), delta): what a sample in a block whose prefix sums have cost rho_block so far
   * costs, its histogram included (reserved from the block's first step on, before anything that depends on
   * the histogram is released).
   */
  public PrivacyBudget spent(double blockRhoSoFar) {
    return blocks.spent(blockRhoSoFar);
  }

  /** {@code zcdp-<conversion>-adaptive-clip}. */
  public String accountant() {
    return "zcdp-" + model.conversion().citation() + "-adaptive-clip";
  }

  @Override
  public String toString() {
    return "AdaptiveClipBudget[" + model + ", rho_q=" + quantileRho + ", sigma_h=" + histogramSigma + ", rho_b="
        + blocks.rho() + "]";
  }
}
