package org.dpstream.core.online;

import java.util.Arrays;
import org.dpstream.core.erm.FeatureBounds;
import org.dpstream.core.erm.FeatureScaling;

/**
 * Per-feature scaling of an online model's samples by declared public bounds b_1..b_d (config key
 * {@code featureBounds}): each feature is first clamped to [-b_j, b_j], then divided by b_j, so the
 * estimator sees features in [-1, 1] whatever their units; its parameters theta' (in those scaled units)
 * map back to w_j = theta'_j / b_j, the same margins on the original features (sum_j (x_j / b_j) theta'_j =
 * x'w). Reuses batch ERM's {@link FeatureScaling} for that map.
 *
 * <p><b>Privacy.</b> The map x -&gt; clamp(x, b) / b is fixed by public numbers and applied to each sample
 * on its own, reading nothing else: two streams that differ in one sample still differ in (at most) that
 * one sample after it, so the estimator's guarantee on the scaled stream is its guarantee on the original
 * stream, with the same accounting. Mapping the released parameters back is post-processing of a release
 * by public numbers. The bounds must be declared (a schema, a contract), never measured on the stream.
 *
 * <p>Clamping first makes the division exact and safe for every finite input: |clamp(x_j)| &lt;= b_j gives
 * |x_j / b_j| &lt;= 1 in floating point (division is correctly rounded and monotone), so even x_j =
 * {@link Double#MAX_VALUE} over a tiny bound cannot overflow. A feature within its bound is divided
 * unchanged.
 *
 * <p>Immutable.
 */
public final class FeatureBoundScaling {

  private final FeatureBounds bounds;
  private final FeatureScaling scaling;

  private FeatureBoundScaling(FeatureBounds bounds) {
    this.bounds = bounds;
    this.scaling = FeatureScaling.byBounds(bounds);
  }

  /**
   * Scaling by b_1..b_d.
   *
   * @throws IllegalArgumentException if empty or some b_j is not finite and &gt; 0
   */
  public static FeatureBoundScaling of(double... bounds) {
    return new FeatureBoundScaling(FeatureBounds.of(bounds));
  }

  public int dimension() {
    return bounds.dimension();
  }

  /** The smallest b_j: the largest factor a parameter is multiplied by when mapped back is 1 / this. */
  public double smallestBound() {
    return Arrays.stream(bounds.toArray()).min().orElseThrow();
  }

  /**
   * Writes clamp(x_j, b_j) / b_j into {@code out} (which may be x itself).
   *
   * @return true if some feature was outside its bound (and clamped)
   * @throws IllegalArgumentException if the lengths differ from the bounds' or an entry is NaN or infinite
   *     (as the estimators refuse them: the service's decoder rejects such samples before they get here)
   */
  public boolean scale(double[] x, double[] out) {
    int d = bounds.dimension();
    if (x.length != d || out.length != d) {
      throw new IllegalArgumentException("x has length " + x.length + ", out " + out.length + ", the feature bounds "
          + d);
    }
    boolean clamped = false;
    for (int j = 0; j < d; j++) {
      double value = x[j];
      if (!Double.isFinite(value)) {
        throw new IllegalArgumentException("x must have finite entries, found " + value);
      }
      double b = bounds.bound(j);
      if (value > b || value < -b) {
        clamped = true;
        value = value > b ? b : -b;
      }
      out[j] = value / b;
    }
    return clamped;
  }

  /** w_j = theta'_j / b_j: parameters of the scaled model in the samples' original units. */
  public double[] toOriginalUnits(double[] scaledParameters) {
    return scaling.toOriginalUnits(scaledParameters);
  }

  /** b_1..b_d, exactly, for the spec's fingerprint. */
  String fingerprintToken() {
    return Arrays.toString(bounds.toArray());
  }

  /** A copy of b_1..b_d. */
  public double[] toArray() {
    return bounds.toArray();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FeatureBoundScaling that && Arrays.equals(bounds.toArray(), that.bounds.toArray());
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bounds.toArray());
  }

  @Override
  public String toString() {
    return "featureBounds" + fingerprintToken();
  }
}
