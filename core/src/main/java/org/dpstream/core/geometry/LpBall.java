package org.dpstream.core.geometry;

import java.util.Objects;

/**
 * The centred l_p ball {v : ||v||_p &lt;= r}, the constraint set C of Han et al. (the experiments
 * use r = 2, so the diameter D = 2r = 4; Han et al. 2022, sections 1 and 5), with its linear
 * minimisation oracle (Frank-Wolfe) and Euclidean projection.
 *
 * <p>Immutable. Arrays passed in are never retained.
 */
public final class LpBall {

  private final LpNorm norm;
  private final double radius;

  private LpBall(LpNorm norm, double radius) {
    this.norm = Objects.requireNonNull(norm, "norm");
    this.radius = Vectors.requirePositiveFinite(radius, "radius");
  }

  /**
   * @param p exponent in [1, infinity] ({@link Double#POSITIVE_INFINITY} for the cube)
   * @throws IllegalArgumentException if p is NaN or below 1, or radius is not finite and &gt; 0
   */
  public static LpBall of(double p, double radius) {
    return new LpBall(LpNorm.of(p), radius);
  }

  /** @throws IllegalArgumentException if radius is not finite and &gt; 0 */
  public static LpBall of(LpNorm norm, double radius) {
    return new LpBall(norm, radius);
  }

  public LpNorm norm() {
    return norm;
  }

  /** The exponent p. */
  public double exponent() {
    return norm.exponent();
  }

  public double radius() {
    return radius;
  }

  /** Diameter D = 2r in ||.||_p: the bound on ||a - b||_p used by the sensitivity analysis. */
  public double diameter() {
    return 2 * radius;
  }

  /** Whether ||x||_p &lt;= r (as computed by {@link LpNorm#valueOf(double[])}). */
  public boolean contains(double[] x) {
    return norm.valueOf(x) <= radius;
  }

  /**
   * Linear minimisation oracle: writes v = argmin_{||v||_p &lt;= r} &lt;g, v&gt; into {@code out}.
   * The minimum value is -r ||g||_q (Hölder equality) and, for g != 0, ||v||_p = r up to
   * rounding (v is not nudged inside: Frank-Wolfe only forms convex combinations with it).
   *
   * <ul>
   *   <li>1 &lt; p &lt; infinity: the unique minimiser v_j = -r sign(g_j) |g_j|^(q-1) /
   *       ||g||_q^(q-1), computed without overflow for p near 1 or near infinity.
   *   <li>p = infinity: v = -r sign(g), with v_j = 0 where g_j = 0 (there any value in [-r, r]
   *       minimises; 0 is the deterministic, sparse choice).
   *   <li>p = 1: v = -r sign(g_j) e_j for the <em>smallest</em> index j maximising |g_j| (among
   *       ties any mixture of those vertices minimises; the smallest index is deterministic).
   *   <li>g = 0: every feasible point minimises; v = 0.
   * </ul>
   *
   * <p>Allocation-free; {@code out} may be {@code g} itself.
   *
   * @throws IllegalArgumentException if the lengths differ or g has a NaN or infinite entry
   */
  public void minimizeLinear(double[] g, double[] out) {
    LinearMinimizer.minimize(g, norm.exponent(), radius, out);
  }

  /** {@link #minimizeLinear(double[], double[])} into a new array. */
  public double[] minimizeLinear(double[] g) {
    double[] out = new double[Objects.requireNonNull(g, "g").length];
    minimizeLinear(g, out);
    return out;
  }

  /**
   * Euclidean projection: writes argmin_{||v||_p &lt;= r} ||v - x||_2 into {@code out}. Points
   * inside are copied unchanged. Outside:
   *
   * <ul>
   *   <li>p = infinity: clamping each coordinate to [-r, r] (exact);
   *   <li>p = 2: the radial scaling r x / ||x||_2;
   *   <li>p = 1: soft thresholding at the level found by the sort-based algorithm of Duchi et al.
   *       (2008), O(d log d);
   *   <li>1 &lt; p &lt; infinity otherwise: no closed form; the KKT conditions are solved by nested
   *       bisections to full double precision, about 4096 d calls to {@link Math#pow}. Not for
   *       per-sample hot paths.
   * </ul>
   *
   * <p>The result always satisfies {@code contains(out)}: a rounding overshoot of a few ulps is
   * removed by scaling (see {@link NormClipper}).
   *
   * @throws IllegalArgumentException if the lengths differ, {@code out == x}, or x has a NaN or
   *     infinite entry
   */
  public void project(double[] x, double[] out) {
    BallProjection.project(x, norm, radius, out);
  }

  /** {@link #project(double[], double[])} into a new array. */
  public double[] project(double[] x) {
    double[] out = new double[Objects.requireNonNull(x, "x").length];
    project(x, out);
    return out;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof LpBall ball
        && ball.norm.equals(norm)
        && Double.compare(ball.radius, radius) == 0;
  }

  @Override
  public int hashCode() {
    return 31 * norm.hashCode() + Double.hashCode(radius);
  }

  @Override
  public String toString() {
    return "LpBall(" + norm + ", r=" + radius + ")";
  }
}
