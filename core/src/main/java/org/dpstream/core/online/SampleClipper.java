package org.dpstream.core.online;

import java.util.Arrays;
import java.util.Objects;
import org.dpstream.core.geometry.LpNorm;
import org.dpstream.core.geometry.NormClipper;
import org.dpstream.core.loss.DataBounds;

/**
 * Brings one sample within the declared {@link DataBounds} before any loss sees it: x is scaled into
 * the ball ||x||_q &lt;= X (q the dual of the domain's p) and y is clamped to [-Y, Y]. The loss's
 * Lipschitz and smoothness constants, and hence the clip bounds and the noise, are only valid for such
 * samples; clipping also keeps every later product finite, whatever finite values arrive (a feature of
 * 1e200 would otherwise overflow the gradient (&lt;x, theta&gt; - y) x).
 *
 * <p>Samples already within the bounds are left bit-for-bit unchanged ({@link NormClipper}'s
 * guarantee), so for data that respects its declaration nothing changes. The norm is computed on x
 * scaled by its largest entry, so huge finite entries (up to {@link Double#MAX_VALUE}) are clipped
 * without overflow. Immutable; the caller supplies the output buffer.
 */
public final class SampleClipper {

  /** Null when X = 0: every sample's features are then the zero vector. */
  private final NormClipper featureClipper;
  private final double labelBound;

  public SampleClipper(LpNorm featureNorm, DataBounds bounds) {
    Objects.requireNonNull(featureNorm, "featureNorm");
    Objects.requireNonNull(bounds, "bounds");
    this.featureClipper = bounds.featureDualNorm() > 0 ? NormClipper.of(featureNorm, bounds.featureDualNorm()) : null;
    this.labelBound = bounds.labelBound();
  }

  /** The clipper of a model: features in the dual norm of its domain, to its declared data bounds. */
  public static SampleClipper of(OnlineModelSpec spec) {
    return new SampleClipper(spec.domain().norm().dual(), spec.data());
  }

  /**
   * Writes the clipped features into {@code out} (which may be x itself).
   *
   * @return true if they were changed
   * @throws IllegalArgumentException if the lengths differ or an entry is NaN or infinite
   */
  public boolean clipFeatures(double[] x, double[] out) {
    if (featureClipper != null) {
      return featureClipper.clip(x, out);
    }
    if (x.length != out.length) {
      throw new IllegalArgumentException("x has length " + x.length + ", out " + out.length);
    }
    boolean changed = false;
    for (double value : x) {
      if (!Double.isFinite(value)) {
        throw new IllegalArgumentException("x must have finite entries, found " + value);
      }
      changed |= value != 0;
    }
    Arrays.fill(out, 0.0);
    return changed;
  }

  /** y clamped to [-Y, Y]; a finite y within the bound (including -0.0) is returned unchanged. */
  public double clipLabel(double y) {
    if (Double.isNaN(y)) {
      throw new IllegalArgumentException("label is NaN");
    }
    return y > labelBound ? labelBound : y < -labelBound ? -labelBound : y;
  }
}
