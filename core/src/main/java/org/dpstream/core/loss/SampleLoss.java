package org.dpstream.core.loss;

import org.dpstream.core.geometry.LpBall;

/**
 * A per-sample loss f(theta; x, y), convex and differentiable in theta, together with the
 * regularity constants the privacy calibration needs (Han et al., Assumptions 2.2 and 2.4):
 *
 * <ul>
 *   <li>Lipschitz constant L: ||grad f(theta; x, y)||_q &lt;= L for all theta in the domain;
 *   <li>smoothness beta: ||grad f(a; x, y) - grad f(b; x, y)||_q &lt;= beta ||a - b||_p for all a, b
 *       in the domain;
 * </ul>
 *
 * <p>for every sample within the public {@link DataBounds}, where ||.||_p is the domain's norm and
 * ||.||_q its dual. The sensitivity of Algorithm 1's gradient increment is 2 (beta D + L) with D
 * the domain's diameter (proof of Theorem 3.1).
 *
 * <p>Implementations are immutable; {@link #value} and {@link #gradient} do not allocate.
 */
public interface SampleLoss {

  /**
   * f(theta; x, y).
   *
   * @throws IllegalArgumentException if the lengths differ or y is not an admissible label
   */
  double value(double[] theta, double[] x, double y);

  /**
   * Writes grad_theta f(theta; x, y) into {@code out}; {@code out} may alias {@code theta} or
   * {@code x}.
   *
   * @throws IllegalArgumentException if the lengths differ or y is not an admissible label
   */
  void gradient(double[] theta, double[] x, double y, double[] out);

  /**
   * Checks that {@code y} is a label this loss accepts (e.g. logistic labels lie in [0, 1]).
   *
   * @throws IllegalArgumentException with a message naming the admissible range
   */
  void requireLabel(double y);

  /** L: a bound on ||grad f||_q over {@code domain} for samples within {@code data}. */
  double lipschitzBound(LpBall domain, DataBounds data);

  /** beta: the smoothness constant from ||.||_p to ||.||_q over {@code domain} within {@code data}. */
  double smoothnessBound(LpBall domain, DataBounds data);
}
