package org.dpstream.core.geometry;

import java.util.Objects;

/**
 * The l_p norm ||x||_p = (sum_i |x_i|^p)^(1/p) on R^d for an exponent p in [1, infinity], with
 * {@link Double#POSITIVE_INFINITY} standing for p = infinity (||x||_inf = max_i |x_i|).
 *
 * <p>In the notation of Han et al. ("On Private Online Convex Optimization: Optimal Algorithms in lp-Geometry
 * and High Dimensional Contextual Bandits", 2022) parameters theta are measured in ||.||_p
 * and gradients in the dual norm ||.||_q, 1/p + 1/q = 1; {@link #dual()} gives the latter.
 *
 * <p><b>Numerics.</b> p = 1 and p = infinity are computed directly (a sum and a maximum of
 * absolute values). For 1 &lt; p &lt; infinity the entries are first divided by m = max_i |x_i|,
 * so every term |x_i/m|^p lies in [0, 1], at least one equals 1 and the sum lies in [1, d]: no
 * intermediate overflows or underflows to zero for any p (p = 2 uses a product and sqrt instead
 * of pow). The result overflows to infinity only if the norm itself exceeds
 * {@link Double#MAX_VALUE}. For p = 1 that can happen when the sum of huge entries does.
 *
 * <p>A NaN entry gives NaN; otherwise an infinite entry gives infinity. Immutable and
 * allocation-free.
 */
public final class LpNorm {

  public static final LpNorm L1 = new LpNorm(1);
  public static final LpNorm L2 = new LpNorm(2);
  public static final LpNorm LINF = new LpNorm(Double.POSITIVE_INFINITY);

  private final double p;
  // Cached so that dual() never allocates after the first call; racy initialisation is benign
  // because every LpNorm is immutable with a final exponent.
  private LpNorm dual;

  private LpNorm(double p) {
    this.p = p;
  }

  /**
   * The l_p norm.
   *
   * @param p exponent in [1, infinity]; {@link Double#POSITIVE_INFINITY} for the max norm
   * @throws IllegalArgumentException if p is NaN or below 1
   */
  public static LpNorm of(double p) {
    requireExponent(p);
    if (p == 1) {
      return L1;
    }
    if (p == 2) {
      return L2;
    }
    if (p == Double.POSITIVE_INFINITY) {
      return LINF;
    }
    return new LpNorm(p);
  }

  /**
   * Dual exponent q = p / (p - 1), with q(1) = infinity and q(infinity) = 1.
   *
   * <p>For a finite p so large that p / (p - 1) rounds to 1 this returns 1; the dual of that is
   * infinity, not p. Code that needs q - 1 = 1 / (p - 1) accurately (the linear minimisation
   * oracle) computes it from p instead.
   *
   * @throws IllegalArgumentException if p is NaN or below 1
   */
  public static double dualExponent(double p) {
    requireExponent(p);
    if (p == 1) {
      return Double.POSITIVE_INFINITY;
    }
    if (p == Double.POSITIVE_INFINITY) {
      return 1;
    }
    return p / (p - 1);
  }

  /** The exponent p. */
  public double exponent() {
    return p;
  }

  /** The dual norm ||.||_q, q = {@link #dualExponent(double) dualExponent(p)}. */
  public LpNorm dual() {
    LpNorm cached = dual;
    if (cached == null) {
      cached = of(dualExponent(p));
      dual = cached;
    }
    return cached;
  }

  /** ||x||_p. Allocation-free. */
  public double valueOf(double[] x) {
    Objects.requireNonNull(x, "x");
    return valueOfScaled(x, 1);
  }

  /**
   * ||fl(factor * x)||_p where fl(factor * x_i) is the rounded product, exactly the value that
   * {@code x[i] *= factor} stores. The clipper uses this to check a scaling factor before writing,
   * and {@code valueOf(x)} is this with factor 1, so both compute bit-identical results.
   */
  double valueOfScaled(double[] x, double factor) {
    if (p == 1) {
      double sum = 0;
      for (double value : x) {
        sum += Math.abs(value * factor);
      }
      return sum;
    }
    double max = 0;
    for (double value : x) {
      max = Math.max(max, Math.abs(value * factor));
    }
    // 0, NaN and infinity are already the norm; scaling by them would produce 0/0 or inf/inf.
    if (p == Double.POSITIVE_INFINITY || !(max > 0 && max <= Double.MAX_VALUE)) {
      return max;
    }
    double sum = 0;
    if (p == 2) {
      for (double value : x) {
        double ratio = (value * factor) / max;
        sum += ratio * ratio;
      }
      return max * Math.sqrt(sum);
    }
    for (double value : x) {
      sum += Powers.of(Math.abs(value * factor) / max, p);
    }
    return max * Powers.root(sum, p);
  }

  static double requireExponent(double p) {
    if (!(p >= 1)) {
      throw new IllegalArgumentException(
          "exponent p must be in [1, infinity] (Double.POSITIVE_INFINITY for infinity), got " + p);
    }
    return p;
  }

  boolean isOne() {
    return p == 1;
  }

  boolean isTwo() {
    return p == 2;
  }

  boolean isInfinite() {
    return p == Double.POSITIVE_INFINITY;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof LpNorm norm && Double.compare(norm.p, p) == 0;
  }

  @Override
  public int hashCode() {
    return Double.hashCode(p);
  }

  @Override
  public String toString() {
    return isInfinite() ? "l_inf" : "l_" + p;
  }
}
