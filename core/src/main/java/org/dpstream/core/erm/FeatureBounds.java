package org.dpstream.core.erm;

import java.util.Arrays;

/**
 * Declared public bounds |x_j| &lt;= b_j on every feature, one per coordinate.
 *
 * <p><b>Privacy.</b> Every constant the private algorithms derive (coordinate smoothness M_j, Lipschitz
 * constants L_U, clipping thresholds of the smooth rule, importance probabilities, step sizes) is a
 * function of these bounds and of the loss, never of the data. So the bounds must come from a schema, a
 * normalisation contract or domain knowledge: bounds measured on the private data (its largest |x_ij|, or
 * its column norms as in the DP-CD paper's experiments) change when one record changes, and a calibration
 * built on them is no longer differentially private. Mangold et al. (2022, Section 3.5) note this leak; we close it by construction.
 *
 * <p>Immutable; the array is copied in and out.
 */
public final class FeatureBounds {

  private final double[] bounds;

  private FeatureBounds(double[] bounds) {
    this.bounds = bounds;
  }

  /**
   * Per-coordinate bounds b_1..b_d.
   *
   * @throws IllegalArgumentException if empty or some b_j is not finite and &gt; 0 (a feature bounded by 0
   *     is identically 0 and should be dropped)
   */
  public static FeatureBounds of(double... bounds) {
    double[] copy = bounds.clone();
    if (copy.length == 0) {
      throw new IllegalArgumentException("need at least one feature bound");
    }
    for (int j = 0; j < copy.length; j++) {
      if (!(copy[j] > 0) || !Double.isFinite(copy[j])) {
        throw new IllegalArgumentException("bound b_" + j + " must be finite and > 0, got " + copy[j]);
      }
    }
    return new FeatureBounds(copy);
  }

  /** The same bound b for each of d features. */
  public static FeatureBounds uniform(int dimension, double bound) {
    double[] bounds = new double[dimension];
    Arrays.fill(bounds, bound);
    return of(bounds);
  }

  public int dimension() {
    return bounds.length;
  }

  /** b_j. */
  public double bound(int j) {
    return bounds[j];
  }

  /** A copy of (b_1..b_d). */
  public double[] toArray() {
    return bounds.clone();
  }

  /** sum_j b_j^2, the declared bound on ||x||_2^2. */
  public double squaredNormBound() {
    double sum = 0;
    for (double b : bounds) {
      sum += b * b;
    }
    return sum;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FeatureBounds that && Arrays.equals(bounds, that.bounds);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bounds);
  }

  @Override
  public String toString() {
    return "FeatureBounds" + Arrays.toString(bounds);
  }
}
