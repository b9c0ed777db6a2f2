package org.dpstream.core.online;

import org.dpstream.core.geometry.NormClipper;

/**
 * The per-sample increment of the recursive gradient (eq. 3.1), with each term clipped in the dual
 * norm so its sensitivity holds for any input:
 *
 * <pre>
 *   g = clip_L(grad f(theta_t; x)) + clip_{beta D}(k (grad f(theta_t; x) - grad f(theta_{t-1}; x)))
 * </pre>
 *
 * where k is the step's index in the recursion. Not thread-safe: it reuses its scratch buffers.
 */
final class ClippedIncrement {

  private final OnlineModelSpec spec;
  private final NormClipper gradientClipper;
  private final NormClipper differenceClipper;
  private final double[] gradient;
  private final double[] previousGradient;
  private boolean gradientClipped;
  private boolean differenceClipped;

  ClippedIncrement(OnlineModelSpec spec) {
    this.spec = spec;
    var dual = spec.domain().norm().dual();
    this.gradientClipper = NormClipper.of(dual, spec.clipBounds().gradient());
    this.differenceClipper = NormClipper.of(dual, spec.clipBounds().difference());
    this.gradient = new double[spec.dimension()];
    this.previousGradient = new double[spec.dimension()];
  }

  /** Writes g into {@code out} for the sample (x, y) at the iterates' current and previous points. */
  void compute(FrankWolfeIterates iterates, double[] x, double y, long k, double[] out) {
    spec.loss().gradient(iterates.current(), x, y, gradient);
    spec.loss().gradient(iterates.previous(), x, y, previousGradient);
    for (int i = 0; i < out.length; i++) {
      out[i] = k * (gradient[i] - previousGradient[i]);
    }
    gradientClipped = gradientClipper.clipInPlace(gradient);
    differenceClipped = differenceClipper.clipInPlace(out);
    for (int i = 0; i < out.length; i++) {
      out[i] += gradient[i];
    }
  }

  boolean gradientClipped() {
    return gradientClipped;
  }

  boolean differenceClipped() {
    return differenceClipped;
  }
}
