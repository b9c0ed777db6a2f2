package org.dpstream.core.erm;

import java.util.Objects;

/**
 * Divides every feature by its declared public bound, x_ij / b_j, so that the problem the private
 * algorithms see has all bounds equal to 1, and maps weights back: a model w' of the scaled problem is the
 * model w_j = w'_j / b_j in the user's original units (the margins agree: sum_j (x_ij / b_j) w'_j = x_i' w).
 *
 * <p>Why: step sizes, clipping thresholds and noise follow the declared bounds ({@link CompositeObjective}).
 * On raw features of very different scales (a bound of 4000 next to one of 0.05) the global constants are
 * set by the largest bound, so the step is tiny for every other coordinate and the clip far above most
 * gradients. After scaling every coordinate has the same public geometry.
 *
 * <p><b>Privacy.</b> The map is fixed by the public bounds and applied to each record separately, so it
 * reads nothing private; the guarantee of whatever runs on the scaled data carries over unchanged, and so
 * does the post-processing back to original units. The regulariser acts on the scaled weights (lambda/2
 * ||w'||^2 = lambda/2 sum_j b_j^2 w_j^2): in original units it penalises each weight in proportion to its
 * feature's range, the usual convention of fitting on standardised features.
 *
 * <p>Immutable.
 */
public final class FeatureScaling {

  private final FeatureBounds bounds;

  private FeatureScaling(FeatureBounds bounds) {
    this.bounds = bounds;
  }

  /** Scaling by the bounds b_1..b_d. */
  public static FeatureScaling byBounds(FeatureBounds bounds) {
    return new FeatureScaling(Objects.requireNonNull(bounds, "bounds"));
  }

  /** The bounds divided by. */
  public FeatureBounds bounds() {
    return bounds;
  }

  /**
   * The data with x_ij / b_j and bounds all 1. Exact: |x_ij| &lt;= b_j implies |x_ij / b_j| &lt;= 1 in
   * floating point too (division is correctly rounded and monotone, and 1 is representable).
   *
   * @throws IllegalArgumentException if the data's dimension differs from the bounds'
   */
  public ErmDataset apply(ErmDataset data) {
    requireDimension(data.dimension());
    int n = data.size();
    int d = data.dimension();
    double[][] scaled = new double[n][d];
    for (int i = 0; i < n; i++) {
      double[] row = data.rowView(i);
      for (int j = 0; j < d; j++) {
        scaled[i][j] = row[j] / bounds.bound(j);
      }
    }
    return ErmDataset.of(scaled, data.labelsView(), FeatureBounds.uniform(d, 1.0));
  }

  /** w_j = w'_j / b_j: a model of the scaled problem in the original units. */
  public double[] toOriginalUnits(double[] scaledWeights) {
    requireDimension(scaledWeights.length);
    double[] w = new double[scaledWeights.length];
    for (int j = 0; j < w.length; j++) {
      w[j] = scaledWeights[j] / bounds.bound(j);
    }
    return w;
  }

  /** w'_j = w_j b_j: a model in original units as a model of the scaled problem. */
  public double[] toScaledUnits(double[] originalWeights) {
    requireDimension(originalWeights.length);
    double[] w = new double[originalWeights.length];
    for (int j = 0; j < w.length; j++) {
      w[j] = originalWeights[j] * bounds.bound(j);
    }
    return w;
  }

  private void requireDimension(int dimension) {
    if (dimension != bounds.dimension()) {
      throw new IllegalArgumentException(
          "dimension " + dimension + " does not match the " + bounds.dimension() + " feature bounds");
    }
  }
}
