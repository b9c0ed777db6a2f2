package org.dpstream.core.erm;

import java.util.Objects;

/**
 * A dense training set (x_i, y_i), i = 1..n, x_i in R^d, with its declared public {@link FeatureBounds}.
 *
 * <p>Contract, checked at construction: the feature matrix is rectangular with n &gt;= 1 rows of d &gt;= 1
 * finite entries, d equals the bounds' dimension, labels are finite and as many as rows, and every
 * |x_ij| &lt;= b_j. Labels are checked against the loss by {@link CompositeObjective}. Records outside the
 * declared bounds are rejected by {@link #of}; {@link #clampedToBounds} instead clamps them into the
 * bounds (a per-record map, so it is harmless to privacy and keeps the constants valid).
 *
 * <p>The data are copied, stored both row-major (for per-sample gradients) and column-major (for
 * coordinate updates), and never exposed for mutation. Immutable.
 */
public final class ErmDataset {

  private final double[][] rows;
  private final double[][] columns;
  private final double[] labels;
  private final FeatureBounds bounds;

  private ErmDataset(double[][] rows, double[] labels, FeatureBounds bounds) {
    this.rows = rows;
    this.labels = labels;
    this.bounds = bounds;
    int d = bounds.dimension();
    this.columns = new double[d][rows.length];
    for (int i = 0; i < rows.length; i++) {
      for (int j = 0; j < d; j++) {
        columns[j][i] = rows[i][j];
      }
    }
  }

  /**
   * Validates and copies a training set.
   *
   * @param features n rows of d features
   * @param labels n labels
   * @param bounds the declared public bounds |x_j| &lt;= b_j
   * @throws IllegalArgumentException if any part of the contract fails, naming the offending entry
   */
  public static ErmDataset of(double[][] features, double[] labels, FeatureBounds bounds) {
    return validated(features, labels, bounds, false);
  }

  /** Like {@link #of}, but entries outside [-b_j, b_j] are clamped into it instead of rejected. */
  public static ErmDataset clampedToBounds(double[][] features, double[] labels, FeatureBounds bounds) {
    return validated(features, labels, bounds, true);
  }

  private static ErmDataset validated(
      double[][] features, double[] labels, FeatureBounds bounds, boolean clamp) {
    Objects.requireNonNull(features, "features");
    Objects.requireNonNull(labels, "labels");
    Objects.requireNonNull(bounds, "bounds");
    int n = features.length;
    int d = bounds.dimension();
    if (n == 0) {
      throw new IllegalArgumentException("need at least one record");
    }
    if (labels.length != n) {
      throw new IllegalArgumentException("got " + n + " feature rows but " + labels.length + " labels");
    }
    double[][] rows = new double[n][];
    for (int i = 0; i < n; i++) {
      double[] row = Objects.requireNonNull(features[i], "feature row " + i);
      if (row.length != d) {
        throw new IllegalArgumentException(
            "row " + i + " has " + row.length + " features, the bounds declare " + d);
      }
      rows[i] = row.clone();
      for (int j = 0; j < d; j++) {
        rows[i][j] = checkedEntry(rows[i][j], bounds.bound(j), i, j, clamp);
      }
      if (!Double.isFinite(labels[i])) {
        throw new IllegalArgumentException("label " + i + " is not finite: " + labels[i]);
      }
    }
    return new ErmDataset(rows, labels.clone(), bounds);
  }

  private static double checkedEntry(double value, double bound, int i, int j, boolean clamp) {
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException("x[" + i + "][" + j + "] is not finite: " + value);
    }
    if (Math.abs(value) <= bound) {
      return value;
    }
    if (clamp) {
      return Math.copySign(bound, value);
    }
    throw new IllegalArgumentException("x[" + i + "][" + j + "] = " + value
        + " is outside the declared bound " + bound + "; use clampedToBounds or widen the bound");
  }

  /** n. */
  public int size() {
    return rows.length;
  }

  /** d. */
  public int dimension() {
    return bounds.dimension();
  }

  public FeatureBounds bounds() {
    return bounds;
  }

  /** x_ij. */
  public double feature(int i, int j) {
    return rows[i][j];
  }

  /** y_i. */
  public double label(int i) {
    return labels[i];
  }

  /** A copy of row i. */
  public double[] row(int i) {
    return rows[i].clone();
  }

  /** x_i' w. */
  public double margin(int i, double[] weights) {
    double[] row = rows[i];
    double sum = 0;
    for (int j = 0; j < row.length; j++) {
      sum += row[j] * weights[j];
    }
    return sum;
  }

  /** Writes X w into {@code out} (length n). */
  void margins(double[] weights, double[] out) {
    for (int i = 0; i < rows.length; i++) {
      out[i] = margin(i, weights);
    }
  }

  /** Row i, shared: callers in this package must not modify it. */
  double[] rowView(int i) {
    return rows[i];
  }

  /** Column j (x_1j..x_nj), shared: callers in this package must not modify it. */
  double[] columnView(int j) {
    return columns[j];
  }

  /** Labels, shared: callers in this package must not modify them. */
  double[] labelsView() {
    return labels;
  }

  @Override
  public String toString() {
    return "ErmDataset(n=" + size() + ", d=" + dimension() + ")";
  }
}
