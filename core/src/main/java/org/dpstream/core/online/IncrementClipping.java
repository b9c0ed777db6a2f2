package org.dpstream.core.online;

import org.dpstream.core.geometry.LpNorm;

/**
 * How DP-TOFW bounds the sensitivity of one increment g_t (ARCHITECTURE.md 4.1).
 *
 * <ul>
 *   <li>{@link Mode#WORST_CASE}: the paper's bound. The gradient term is clipped to L and the difference
 *       term to beta D, each in the dual norm, so ||g_t||_q <= L + beta D for any input. Far above what
 *       data needs: at p = 1.5, d = 5 the bound is 9.5 while ||g_t||_2 has median 0.7.
 *   <li>{@link Mode#FIXED}: g_t is clipped as one vector to {@code threshold} C in the norm the noise
 *       is calibrated in (l2 for the Gaussian tree and the factorization, the dual norm q for the paper's
 *       generalized Gaussian); replacing one sample moves one leaf by at most 2C. C is public
 *       configuration: choosing it by looking at the private stream spends privacy.
 *   <li>{@link Mode#ADAPTIVE}: whole-increment clipping whose threshold is chosen privately online
 *       ({@link AdaptiveClipPlan}): the threshold changes only at the boundaries of blocks of a public
 *       schedule, each block has its own prefix-sum mechanism calibrated to twice its threshold, and the
 *       threshold of the next block is a function of noisy histograms of the increments' norms that cost
 *       {@code quantileShare} of the model's zCDP budget. Without a {@code quantile} (the default) the
 *       threshold minimises the predicted error of the released sums, clipping bias against the block's
 *       noise ({@link BalancedClipThreshold}); with one it follows that quantile of ||g_t||. The first
 *       threshold is the worst-case bound in l2, derived from the declared data bounds.
 * </ul>
 *
 * @param mode which bound
 * @param threshold C for {@link Mode#FIXED}; NaN otherwise
 * @param quantile the target quantile of ||g_t|| for {@link Mode#ADAPTIVE}, in (0, 1), or NaN for the threshold
 *     that balances bias against noise (the default); NaN for the other modes
 * @param quantileShare the share of the model's rho spent on the quantile, in (0, 1/2]; NaN unless adaptive
 */
public record IncrementClipping(Mode mode, double threshold, double quantile, double quantileShare) {

  /** Which bound. */
  public enum Mode { WORST_CASE, FIXED, ADAPTIVE }

  /** The paper's per-term clipping. */
  public static final IncrementClipping WORST_CASE = new IncrementClipping(Mode.WORST_CASE, Double.NaN);

  /**
   * The default of adaptive clipping's {@code quantile}: none (NaN). The threshold then balances the clipping
   * bias against the block's noise ({@link BalancedClipThreshold}) instead of following a fixed quantile, so that
   * more budget buys a higher threshold and, at a large epsilon, the unclipped estimator. A quantile (Andrew,
   * Thakkar, McMahan and Ramaswamy 2021 use the median) stays available.
   */
  public static final double DEFAULT_QUANTILE = Double.NaN;

  /** The default share of the zCDP budget spent on the quantile: 5% (the prefix sums' sigma grows 2.6%). */
  public static final double DEFAULT_QUANTILE_SHARE = 0.05;

  /** Adaptive clipping with the default quantile and budget share. */
  public static final IncrementClipping ADAPTIVE = adaptive(DEFAULT_QUANTILE, DEFAULT_QUANTILE_SHARE);

  public IncrementClipping {
    if (mode == null) {
      throw new IllegalArgumentException("clip mode is required");
    }
    if (mode == Mode.FIXED && !(threshold > 0 && threshold <= Double.MAX_VALUE)) {
      throw new IllegalArgumentException("clip.norm must be finite and > 0, got " + threshold);
    }
    if (mode != Mode.FIXED) {
      threshold = Double.NaN;
    }
    if (mode == Mode.ADAPTIVE) {
      if (!(quantile > 0 && quantile < 1) && !Double.isNaN(quantile)) {
        throw new IllegalArgumentException("clip.quantile must be in (0, 1), got " + quantile);
      }
      if (!(quantileShare > 0 && quantileShare <= 0.5)) {
        throw new IllegalArgumentException("clip.budgetShare must be in (0, 0.5], got " + quantileShare);
      }
    } else {
      quantile = Double.NaN;
      quantileShare = Double.NaN;
    }
  }

  /** Worst-case or fixed clipping. */
  public IncrementClipping(Mode mode, double threshold) {
    this(mode, threshold, Double.NaN, Double.NaN);
  }

  /**
   * Adaptive clipping to the private estimate of {@code quantile} of ||g_t|| (NaN: to the threshold that balances
   * bias against noise), with that budget share.
   */
  public static IncrementClipping adaptive(double quantile, double quantileShare) {
    return new IncrementClipping(Mode.ADAPTIVE, Double.NaN, quantile, quantileShare);
  }

  public boolean isAdaptive() {
    return mode == Mode.ADAPTIVE;
  }

  /** Adaptive clipping whose threshold balances bias against noise (no quantile). */
  public boolean isBalanced() {
    return mode == Mode.ADAPTIVE && Double.isNaN(quantile);
  }

  /** Whole-increment clipping at C. */
  public static IncrementClipping fixed(double threshold) {
    return new IncrementClipping(Mode.FIXED, threshold);
  }

  public boolean isWhole() {
    return mode == Mode.FIXED;
  }

  /**
   * How releases name it, e.g. {@code clip(l2, C=2.0)}, {@code clip(worst-case, L+bD=9.5)} or
   * {@code clip(l2, adaptive balanced, share=0.05)} (the adaptive plan names its first threshold and blocks).
   */
  String describe(LpNorm norm, ClipBounds worstCase) {
    return switch (mode) {
      case FIXED -> "clip(" + norm + ", C=" + threshold + ")";
      case ADAPTIVE -> "clip(" + norm + ", adaptive " + (Double.isNaN(quantile) ? "balanced" : "q=" + quantile)
          + ", share=" + quantileShare + ")";
      case WORST_CASE -> "clip(worst-case, L+bD=" + worstCase.incrementBound() + ")";
    };
  }
}
