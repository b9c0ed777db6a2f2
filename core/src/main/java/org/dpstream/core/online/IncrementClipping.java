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
 * </ul>
 *
 * @param mode which bound
 * @param threshold C for {@link Mode#FIXED}; NaN for {@link Mode#WORST_CASE}
 */
public record IncrementClipping(Mode mode, double threshold) {

  /** Which bound. */
  public enum Mode { WORST_CASE, FIXED }

  /** The paper's per-term clipping. */
  public static final IncrementClipping WORST_CASE = new IncrementClipping(Mode.WORST_CASE, Double.NaN);

  public IncrementClipping {
    if (mode == null) {
      throw new IllegalArgumentException("clip mode is required");
    }
    if (mode == Mode.FIXED && !(threshold > 0 && threshold <= Double.MAX_VALUE)) {
      throw new IllegalArgumentException("clip.norm must be finite and > 0, got " + threshold);
    }
    if (mode == Mode.WORST_CASE) {
      threshold = Double.NaN;
    }
  }

  /** Whole-increment clipping at C. */
  public static IncrementClipping fixed(double threshold) {
    return new IncrementClipping(Mode.FIXED, threshold);
  }

  public boolean isWhole() {
    return mode == Mode.FIXED;
  }

  /** How releases name it, e.g. {@code clip(l2, C=2.0)} or {@code clip(worst-case, L+bD=9.5)}. */
  String describe(LpNorm norm, ClipBounds worstCase) {
    return isWhole()
        ? "clip(" + norm + ", C=" + threshold + ")"
        : "clip(worst-case, L+bD=" + worstCase.incrementBound() + ")";
  }
}
