package org.dpstream.core.geometry;

import java.util.Arrays;

/**
 * Euclidean projection argmin_{||v||_p <= r} ||v - x||_2 onto the l_p ball. See {@link
 * LpBall#project(double[], double[])} for the contract.
 *
 * <p>Every branch ends with {@link NormClipper#clipInPlace(double[], LpNorm, double)}, which is
 * a no-op unless rounding left the result a few ulps outside the ball; this makes feasibility
 * exact in floating point at a cost of at most a few ulps of optimality.
 *
 * <p>Projection is positively homogeneous, P_{rB}(x) = s P_{(r/s)B}(x / s), and the l_1 and
 * general-p branches work on x scaled by a power of two s near max_i |x_i|: the scaling is exact
 * and keeps sums and powers in range.
 */
final class BallProjection {

  /** Bisection over the ordered bit patterns of non-negative doubles ends within this many steps. */
  private static final int MAX_BISECTION_STEPS = 64;

  private BallProjection() {}

  static void project(double[] x, LpNorm norm, double radius, double[] out) {
    Vectors.requireSameLength(x, out, "x");
    Vectors.requireDistinct(x, out, "x");
    Vectors.requireFiniteMaxAbs(x, "x");
    if (norm.valueOf(x) <= radius) {
      System.arraycopy(x, 0, out, 0, x.length);
      return;
    }
    if (norm.isInfinite()) {
      clamp(x, radius, out);
      return;
    }
    if (norm.isTwo()) {
      // The l_2 projection of an outside point is the radial scaling r x / ||x||_2.
      System.arraycopy(x, 0, out, 0, x.length);
    } else if (norm.isOne()) {
      projectOntoCrossPolytope(x, radius, out);
    } else {
      projectBySmoothKkt(x, norm.exponent(), radius, out);
    }
    NormClipper.clipInPlace(out, norm, radius);
  }

  /** p = infinity: coordinate-wise clamping to [-r, r]; exact. */
  private static void clamp(double[] x, double radius, double[] out) {
    for (int i = 0; i < x.length; i++) {
      out[i] = Math.max(-radius, Math.min(radius, x[i]));
    }
  }

  /**
   * p = 1, Duchi, Shalev-Shwartz, Singer and Chandra (ICML 2008), Figure 1: v_i = sign(x_i)
   * max(|x_i| - theta, 0) with theta = (sum_{i <= k} u_(i) - r) / k, u sorted decreasingly and k
   * the largest index with u_(k) &gt; (sum_{i <= k} u_(i) - r) / k. O(d log d); {@code out}
   * serves as the sort buffer ({@link Arrays#sort(double[])} may allocate for large d).
   */
  private static void projectOntoCrossPolytope(double[] x, double radius, double[] out) {
    int shift = exponentOfMaxAbs(x);
    double scaledRadius = Math.scalb(radius, -shift);
    for (int i = 0; i < x.length; i++) {
      out[i] = Math.scalb(Math.abs(x[i]), -shift);
    }
    Arrays.sort(out);
    double prefix = 0;
    double threshold = 0;
    for (int k = 1; k <= out.length; k++) {
      double largest = out[out.length - k];
      prefix += largest;
      double candidate = (prefix - scaledRadius) / k;
      if (largest > candidate) {
        threshold = candidate;
      } else {
        // The condition holds for k = 1..k* and fails afterwards (Duchi et al., Lemma 2).
        break;
      }
    }
    for (int i = 0; i < x.length; i++) {
      double shrunk = Math.max(Math.scalb(Math.abs(x[i]), -shift) - threshold, 0);
      out[i] = Math.copySign(Math.scalb(shrunk, shift), x[i]);
    }
  }

  /**
   * 1 &lt; p &lt; infinity, no closed form. With a_i = |x_i| the projection is v_i = sign(x_i) u_i
   * where, by the KKT conditions of min 1/2 ||u - a||^2 s.t. sum u_i^p &lt;= r^p, u_i in [0, a_i]
   * solves u_i + lambda u_i^(p-1) = a_i for the multiplier lambda &gt;= 0 that makes ||u||_p = r.
   *
   * <p>We write lambda = tau^(p-1), so the equation reads u + (tau u)^(p-1) = a: lambda itself
   * can exceed {@link Double#MAX_VALUE} (about (1 - rho) / rho^(p-1) for the largest coordinate
   * when the radius rho is small relative to x and p is large), tau stays below about 1 / rho.
   * The left side is increasing in u and the root u(tau) is non-increasing in tau, so both the
   * per-coordinate root and tau are found by bisection over the ordered bit patterns of
   * non-negative doubles: at most 64 steps each, exact to the last bit, no tolerances and no
   * failure modes (Newton's method would need safeguards where u^(p-1) has infinite slope at 0 for
   * p &lt; 2). Cost: about 64 * 64 * d calls to {@link Math#pow}; fine for occasional projections,
   * not meant for a per-sample hot path (none of the paper's algorithms needs this branch). If r
   * / max_i |x_i| is below the smallest normal double, tau may hit {@link Double#MAX_VALUE}
   * and the final clipping then makes the result feasible but only approximately optimal.
   */
  private static void projectBySmoothKkt(double[] x, double p, double radius, double[] out) {
    int shift = exponentOfMaxAbs(x);
    double scaledRadius = Math.scalb(radius, -shift);
    LpNorm norm = LpNorm.of(p);
    long low = 0; // tau = 0 leaves a unchanged, outside the ball
    long high = Double.doubleToRawLongBits(Double.MAX_VALUE);
    for (int step = 0; step < MAX_BISECTION_STEPS && high - low > 1; step++) {
      long middle = (low + high) >>> 1;
      fillRoots(x, shift, p, Double.longBitsToDouble(middle), out);
      if (norm.valueOf(out) <= scaledRadius) {
        high = middle;
      } else {
        low = middle;
      }
    }
    fillRoots(x, shift, p, Double.longBitsToDouble(high), out);
    for (int i = 0; i < x.length; i++) {
      out[i] = Math.copySign(Math.scalb(out[i], shift), x[i]);
    }
  }

  /** out_i = u(tau) for a_i = |x_i| 2^-shift. */
  private static void fillRoots(double[] x, int shift, double p, double tau, double[] out) {
    for (int i = 0; i < x.length; i++) {
      out[i] = root(Math.scalb(Math.abs(x[i]), -shift), p, tau);
    }
  }

  /** The smallest double u in [0, a] with u + (tau u)^(p-1) &gt;= a. */
  private static double root(double a, double p, double tau) {
    long low = 0; // u = 0 fails unless a = 0, which the loop never tests
    long high = Double.doubleToRawLongBits(a); // u = a always passes
    while (high - low > 1) {
      long middle = (low + high) >>> 1;
      double u = Double.longBitsToDouble(middle);
      if (u + Math.pow(tau * u, p - 1) >= a) {
        high = middle;
      } else {
        low = middle;
      }
    }
    return Double.longBitsToDouble(high);
  }

  /** e with 2^e &lt;= max_i |x_i| &lt; 2^(e+1) (for subnormal maxima, the subnormal exponent). */
  private static int exponentOfMaxAbs(double[] x) {
    return Math.getExponent(Vectors.maxAbs(x));
  }
}
