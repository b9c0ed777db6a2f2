package org.dpstream.core.geometry;

import java.util.Arrays;

/**
 * Closed forms of argmin_{||v||_p <= r} &lt;g, v&gt; (Han et al. 2022, Algorithm 1 line 6). For p = 1 Algorithm 2 replaces the exact argmin over the 2d vertices +-r e_j by a
 * noisy private selection; that lives with the optimiser, not here. By Hölder, &lt;g, v&gt; &gt;= -||g||_q ||v||_p &gt;= -r ||g||_q,
 * and each form below attains equality. See {@link LpBall#minimizeLinear(double[], double[])} for
 * the contract; all methods are allocation-free and allow {@code out == g}.
 */
final class LinearMinimizer {

  private LinearMinimizer() {}

  static void minimize(double[] g, double p, double radius, double[] out) {
    Vectors.requireSameLength(g, out, "g");
    double max = Vectors.requireFiniteMaxAbs(g, "g");
    if (max == 0) {
      // Every feasible point minimises <0, v> = 0; the centre is the canonical choice.
      Arrays.fill(out, 0);
    } else if (p == 1) {
      vertexOfCrossPolytope(g, max, radius, out);
    } else if (p == Double.POSITIVE_INFINITY) {
      vertexOfCube(g, radius, out);
    } else {
      smoothBallPoint(g, max, p, radius, out);
    }
  }

  /**
   * p = 1: v = -r sign(g_j) e_j for the smallest index j with |g_j| = max_i |g_i|. Among tied
   * coordinates any convex combination of these vertices minimises; the smallest index makes the
   * choice deterministic (reproducible across replays of a stream).
   */
  private static void vertexOfCrossPolytope(double[] g, double max, double radius, double[] out) {
    int chosen = 0;
    while (Math.abs(g[chosen]) != max) {
      chosen++;
    }
    double value = -Math.copySign(radius, g[chosen]);
    Arrays.fill(out, 0);
    out[chosen] = value;
  }

  /**
   * p = infinity: v = -r sign(g), with v_j = 0 where g_j = 0. Any value in [-r, r] minimises in a
   * zero coordinate; 0 keeps v sparse, symmetric under g -> -g and ||v||_inf = r still holds.
   */
  private static void vertexOfCube(double[] g, double radius, double[] out) {
    for (int j = 0; j < g.length; j++) {
      out[j] = g[j] == 0 ? 0 : -Math.copySign(radius, g[j]);
    }
  }

  /**
   * 1 &lt; p &lt; infinity: v_j = -r sign(g_j) |g_j|^(q-1) / ||g||_q^(q-1), the unique minimiser.
   *
   * <p>Computed with w_j = |g_j| / max_i |g_i| in [0, 1]: v_j = -r sign(g_j) w_j^(q-1) / S^(1/p)
   * with S = sum_j w_j^q in [1, d] (since ||g||_q^(q-1) = max^(q-1) S^((q-1)/q) and (q-1)/q =
   * 1/p). Every power has a base in [0, 1], so nothing overflows for q near infinity (p near 1:
   * the non-maximal coordinates underflow to 0 as they should) and the exponent q - 1 = 1/(p-1)
   * is computed from p, so p near infinity gives exponents near 0 rather than a rounded q = 1.
   */
  private static void smoothBallPoint(double[] g, double max, double p, double radius, double[] out) {
    double exponent = 1 / (p - 1);
    double sum = 0;
    for (int j = 0; j < g.length; j++) {
      double weight = Math.abs(g[j]) / max;
      double powered = Powers.of(weight, exponent);
      sum += powered * weight;
      out[j] = Math.copySign(powered, g[j]);
    }
    double scale = -radius / Powers.root(sum, p);
    for (int j = 0; j < out.length; j++) {
      out[j] *= scale;
    }
  }
}
