package org.dpstream.core.online.baseline;

import org.dpstream.core.geometry.LpNorm;
import org.dpstream.core.geometry.NormClipper;

/**
 * Per-sample gradients of a {@link BatchProblem} with the sensitivity bounds enforced by clipping in the
 * dual norm q (the project rule: the calibration must hold for any input, not only for data within the
 * declared bounds).
 *
 * <p>L is the loss's Lipschitz bound over the domain for the declared {@link
 * org.dpstream.core.loss.DataBounds}; for samples within those bounds the gradient norm is at most L
 * and clipping leaves it bit-for-bit unchanged.
 *
 * <p>Holds scratch space: not thread-safe, one instance per training run. Allocation-free after
 * construction.
 */
final class ClippedGradients {

  private final BatchProblem problem;
  private final LpNorm dualNorm;
  private final NormClipper gradientClipper;
  private final double[] scratch;

  ClippedGradients(BatchProblem problem) {
    this.problem = problem;
    this.dualNorm = problem.domain().norm().dual();
    this.gradientClipper = NormClipper.of(dualNorm, Sensitivities.lipschitz(problem));
    this.scratch = new double[problem.dimension()];
  }

  /** Writes clip_L(grad f(theta; x_i, y_i)) into {@code out}. */
  void clippedGradient(double[] theta, int sample, double[] out) {
    problem.loss().gradient(theta, problem.row(sample), problem.label(sample), out);
    gradientClipper.clipInPlace(out);
  }

  /** Adds clip_L(grad f(theta; x_i, y_i)) to {@code sum}. */
  void addClippedGradient(double[] theta, int sample, double[] sum) {
    clippedGradient(theta, sample, scratch);
    for (int k = 0; k < sum.length; k++) {
      sum[k] += scratch[k];
    }
  }

  /**
   * Adds clip_C(grad f(a; x_i, y_i) - grad f(b; x_i, y_i)) to {@code sum}, clipped in the dual norm by
   * {@code differenceClipper} (bound C = beta ||a - b||_p or a public upper bound of it). Uses {@code
   * difference} as scratch.
   */
  void addClippedDifference(double[] a, double[] b, int sample, NormClipper differenceClipper,
      double[] difference, double[] sum) {
    problem.loss().gradient(a, problem.row(sample), problem.label(sample), difference);
    problem.loss().gradient(b, problem.row(sample), problem.label(sample), scratch);
    for (int k = 0; k < difference.length; k++) {
      difference[k] -= scratch[k];
    }
    differenceClipper.clipInPlace(difference);
    for (int k = 0; k < sum.length; k++) {
      sum[k] += difference[k];
    }
  }

  /** The dual norm ||.||_q in which the clipping is done. */
  LpNorm dualNorm() {
    return dualNorm;
  }
}
