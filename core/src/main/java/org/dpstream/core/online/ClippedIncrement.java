package org.dpstream.core.online;

import org.dpstream.core.geometry.LpNorm;
import org.dpstream.core.geometry.NormClipper;

/**
 * The per-sample increment of the recursive gradient (eq. 3.1), clipped so its sensitivity holds for
 * any input. With {@link IncrementClipping.Mode#WORST_CASE} each term is clipped in the dual norm:
 *
 * <pre>
 *   g = clip_L(grad f(theta_t; x)) + clip_{beta D}(k (grad f(theta_t; x) - grad f(theta_{t-1}; x)))
 * </pre>
 *
 * and with {@link IncrementClipping.Mode#FIXED} the sum is clipped as one vector to C in the norm the
 * noise is calibrated in: g = clip_C(grad f(theta_t; x) + k (grad f(theta_t; x) - grad f(theta_{t-1}; x))).
 * k is the step's index in the recursion. Both are computed on the sample clipped to the model's declared
 * data bounds ({@link SampleClipper}): the loss's constants hold only for such samples, and clipping
 * keeps the gradient finite for any finite input. Not thread-safe: it reuses its scratch buffers.
 */
final class ClippedIncrement {

  private final OnlineModelSpec spec;
  private final NormClipper gradientClipper;
  private final NormClipper differenceClipper;
  private NormClipper wholeClipper;
  private final SampleClipper sampleClipper;
  private final double[] clippedFeatures;
  private final double[] gradient;
  private final double[] previousGradient;
  private boolean gradientClipped;
  private boolean differenceClipped;
  private boolean sampleClipped;
  private double wholeNorm = Double.NaN;

  /** Per-term clipping (the worst case), whatever the spec says. */
  ClippedIncrement(OnlineModelSpec spec) {
    this(spec, null);
  }

  /**
   * @param wholeNorm the norm of whole-increment clipping (the noise's), used when the spec asks for it;
   *     null for per-term clipping
   */
  ClippedIncrement(OnlineModelSpec spec, LpNorm wholeNorm) {
    this.spec = spec;
    var dual = spec.domain().norm().dual();
    this.gradientClipper = NormClipper.of(dual, spec.clipBounds().gradient());
    this.differenceClipper = NormClipper.of(dual, spec.clipBounds().difference());
    IncrementClipping clipping = spec.incrementClipping();
    this.wholeClipper = wholeNorm == null ? null
        : clipping.isWhole() ? NormClipper.of(wholeNorm, clipping.threshold())
        : clipping.isAdaptive() ? NormClipper.of(wholeNorm, AdaptiveClipPlan.initialThreshold(spec))
        : null;
    this.sampleClipper = SampleClipper.of(spec);
    this.clippedFeatures = new double[spec.dimension()];
    this.gradient = new double[spec.dimension()];
    this.previousGradient = new double[spec.dimension()];
  }

  /**
   * Writes g into {@code out} for the sample (x, y), clipped to the data bounds, at the iterates'
   * current and previous points. x itself is not modified.
   */
  void compute(FrankWolfeIterates iterates, double[] x, double y, long k, double[] out) {
    double clippedLabel = sampleClipper.clipLabel(y);
    sampleClipped = sampleClipper.clipFeatures(x, clippedFeatures) | clippedLabel != y;
    spec.loss().gradient(iterates.current(), clippedFeatures, clippedLabel, gradient);
    spec.loss().gradient(iterates.previous(), clippedFeatures, clippedLabel, previousGradient);
    if (wholeClipper != null) {
      for (int i = 0; i < out.length; i++) {
        out[i] = gradient[i] + k * (gradient[i] - previousGradient[i]);
      }
      wholeNorm = wholeClipper.norm().valueOf(out);
      gradientClipped = wholeClipper.clipInPlace(out);
      differenceClipped = false;
      return;
    }
    for (int i = 0; i < out.length; i++) {
      out[i] = k * (gradient[i] - previousGradient[i]);
    }
    gradientClipped = gradientClipper.clipInPlace(gradient);
    differenceClipped = differenceClipper.clipInPlace(out);
    for (int i = 0; i < out.length; i++) {
      out[i] += gradient[i];
    }
  }

  /** Adaptive clipping: the threshold of whole-increment clipping from the next increment on. */
  void setWholeThreshold(double threshold) {
    if (threshold != wholeClipper.bound()) {
      wholeClipper = NormClipper.of(wholeClipper.norm(), threshold);
    }
  }

  /** Whole-increment clipping: the norm of the latest increment before it was clipped. */
  double wholeNorm() {
    return wholeNorm;
  }

  /** The sample itself was outside its declared data bounds and was clipped to them. */
  boolean sampleClipped() {
    return sampleClipped;
  }

  boolean gradientClipped() {
    return gradientClipped;
  }

  boolean differenceClipped() {
    return differenceClipped;
  }
}
