package org.dpstream.core.geometry;

import java.util.Objects;

/**
 * Clipping to a norm ball: x -> x min(1, C / ||x||), in any l_p norm (for gradients: the dual
 * norm ||.||_q in which sensitivity is measured).
 *
 * <p><b>Guarantee.</b> After clipping, {@code norm.valueOf(x) <= C} holds exactly in floating
 * point, not just up to rounding: the factor C / ||x|| can round up, so it is lowered ulp by ulp
 * until the stored vector passes (usually zero or one step). A clipped sample that exceeds C
 * would break the sensitivity bound the noise is calibrated to. The check uses this package's
 * computed norm, whose rounding error relative to the exact real norm is of the order of d ulps;
 * a calibration that must hold for the exact real norm should allow that relative slack on C.
 *
 * <p>Vectors already within the bound are left bit-for-bit unchanged. Immutable and
 * allocation-free.
 */
public final class NormClipper {

  private final LpNorm norm;
  private final double bound;

  private NormClipper(LpNorm norm, double bound) {
    this.norm = Objects.requireNonNull(norm, "norm");
    this.bound = Vectors.requirePositiveFinite(bound, "clipping bound");
  }

  /**
   * Clipping to {x : ||x|| <= bound} in the given norm.
   *
   * @throws IllegalArgumentException if bound is not finite and &gt; 0
   */
  public static NormClipper of(LpNorm norm, double bound) {
    return new NormClipper(norm, bound);
  }

  public LpNorm norm() {
    return norm;
  }

  public double bound() {
    return bound;
  }

  /**
   * Clips {@code x} in place.
   *
   * @return true if x was scaled down (its norm exceeded the bound), false if left unchanged
   * @throws IllegalArgumentException if x has a NaN or infinite entry (x is then unchanged)
   */
  public boolean clipInPlace(double[] x) {
    Objects.requireNonNull(x, "x");
    return clipInPlace(x, norm, bound);
  }

  /**
   * Writes the clipped {@code x} into {@code out} (which may be x itself); x is otherwise unchanged.
   *
   * @return true if the copy was scaled down
   * @throws IllegalArgumentException if the lengths differ or x has a NaN or infinite entry
   */
  public boolean clip(double[] x, double[] out) {
    Vectors.requireSameLength(x, out, "x");
    Vectors.requireFiniteMaxAbs(x, "x");
    System.arraycopy(x, 0, out, 0, x.length);
    return clipInPlace(out, norm, bound);
  }

  /** Shared with the ball projections, which use it to remove rounding overshoot. */
  static boolean clipInPlace(double[] x, LpNorm norm, double bound) {
    double length = norm.valueOf(x);
    if (length <= bound) {
      return false;
    }
    double factor = initialFactor(x, norm, bound, length);
    // Lower the factor until the rounded products pass; the step doubles so this ends within
    // about 64 rounds even in the worst case, and factor 0 always passes (bound > 0).
    double step = Math.ulp(factor);
    while (norm.valueOfScaled(x, factor) > bound) {
      factor = Math.max(0, factor - step);
      step *= 2;
    }
    for (int i = 0; i < x.length; i++) {
      x[i] *= factor;
    }
    return true;
  }

  /** bound / ||x||, computed on x / max|x_i| if ||x|| itself overflowed (possible for p = 1). */
  private static double initialFactor(double[] x, LpNorm norm, double bound, double length) {
    if (length <= Double.MAX_VALUE) {
      return bound / length;
    }
    double max = Vectors.requireFiniteMaxAbs(x, "x");
    return (bound / max) / norm.valueOfScaled(x, 1 / max);
  }
}
