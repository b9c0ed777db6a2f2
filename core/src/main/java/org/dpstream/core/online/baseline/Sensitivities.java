package org.dpstream.core.online.baseline;

import org.dpstream.core.loss.SampleLoss;
import org.dpstream.core.privacy.accounting.PrivacyBudget;

/**
 * The constants the baselines' calibrations are built from, and the rounding that keeps them safe.
 *
 * <p>Rounding rule (the same as {@code org.dpstream.core.privacy.accounting}): every quantity that bounds
 * a privacy loss is rounded so that rounding can only strengthen the guarantee, sensitivities and noise
 * scales up.
 */
final class Sensitivities {

  /** Relative widening applied to a computed noise scale, covering the error of its short formula. */
  private static final double RELATIVE_SLACK = 0x1p-40;

  private Sensitivities() {}

  /** L of the problem's loss over its domain for its declared data bounds; must be positive and finite. */
  static double lipschitz(BatchProblem problem) {
    SampleLoss loss = problem.loss();
    return requirePositiveFinite(loss.lipschitzBound(problem.domain(), problem.bounds()), "Lipschitz bound L");
  }

  /** beta of the problem's loss over its domain for its declared data bounds; must be positive and finite. */
  static double smoothness(BatchProblem problem) {
    SampleLoss loss = problem.loss();
    return requirePositiveFinite(loss.smoothnessBound(problem.domain(), problem.bounds()), "smoothness bound beta");
  }

  /**
   * A clip bound C turned into a bound on the exact norm of the clipped vector: {@link
   * org.dpstream.core.geometry.NormClipper} bounds the <em>computed</em> norm by C, and the exact norm
   * can exceed it by the summation error, below d 2^-52 relative. The margin is 16 times that (at least
   * 2^-40), as in the online estimators.
   */
  static double exactNormBound(double clipBound, int dimension) {
    return Math.nextUp(clipBound * (1 + Math.max(0x1p-40, dimension * 0x1p-48)));
  }

  /** An upper bound on the exact value of which {@code computed} (a short formula) is an approximation. */
  static double roundUp(double computed) {
    return Math.nextUp(computed + Math.abs(computed) * RELATIVE_SLACK);
  }

  /**
   * The scale of the l_2 norm against l_q: ||v||_2 &lt;= c ||v||_q with c = d^(1/2 - 1/q) for q &gt; 2
   * and c = 1 for q &lt;= 2 (rounded up).
   */
  static double euclideanOverDual(double q, int dimension) {
    return q > 2 ? roundUp(Math.pow(dimension, 0.5 - 1 / q)) : 1.0;
  }

  /**
   * The scale of the l_2 norm against l_p on the domain: ||v||_2 &lt;= c ||v||_p with c = d^(1/2 - 1/p)
   * for p &gt; 2 and c = 1 for p &lt;= 2 (rounded up).
   */
  static double euclideanOverPrimal(double p, int dimension) {
    return p > 2 ? roundUp(Math.pow(dimension, 0.5 - 1 / p)) : 1.0;
  }

  /**
   * The premises both baselines' calibrations share: a positive, finite step-size scale, and a budget in
   * the range where {@code source} is proved (epsilon &lt;= 1, delta &gt; 0).
   */
  static void requireProvedRange(double stepSizeScale, PrivacyBudget budget, String source) {
    if (!(stepSizeScale > 0) || !Double.isFinite(stepSizeScale)) {
      throw new IllegalArgumentException("step size scale must be positive and finite, got " + stepSizeScale);
    }
    requireEpsilonAtMostOne(budget.epsilon(), source);
    requirePositiveDelta(budget.delta(), source);
  }

  private static void requireEpsilonAtMostOne(double epsilon, String source) {
    if (epsilon > 1) {
      throw new IllegalArgumentException("epsilon " + epsilon + " > 1 is outside the range where " + source
          + " is proved; a larger budget cannot be expressed with this calibration");
    }
  }

  private static void requirePositiveDelta(double delta, String source) {
    if (!(delta > 0)) {
      throw new IllegalArgumentException(source + " needs delta > 0");
    }
  }

  private static double requirePositiveFinite(double value, String name) {
    if (!(value > 0) || !Double.isFinite(value)) {
      throw new IllegalArgumentException(name + " must be positive and finite, got " + value
          + " (check the declared data bounds)");
    }
    return value;
  }
}
