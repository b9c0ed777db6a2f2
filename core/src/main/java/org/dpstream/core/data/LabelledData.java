package org.dpstream.core.data;

import java.util.Arrays;
import java.util.Objects;

/**
 * A dense labelled data set: n rows of d finite features and n finite labels. Immutable; arrays are copied
 * in and out.
 */
public final class LabelledData {

  private final double[][] features;
  private final double[] labels;
  private final int dimension;

  private LabelledData(double[][] features, double[] labels, int dimension) {
    this.features = features;
    this.labels = labels;
    this.dimension = dimension;
  }

  /**
   * @throws IllegalArgumentException if empty, ragged, of unequal lengths or holding a non-finite value
   */
  public static LabelledData of(double[][] features, double[] labels) {
    Objects.requireNonNull(features, "features");
    Objects.requireNonNull(labels, "labels");
    if (features.length == 0) {
      throw new IllegalArgumentException("need at least one row");
    }
    if (features.length != labels.length) {
      throw new IllegalArgumentException(features.length + " rows but " + labels.length + " labels");
    }
    int d = features[0].length;
    if (d == 0) {
      throw new IllegalArgumentException("need at least one feature");
    }
    double[][] copy = new double[features.length][];
    for (int i = 0; i < features.length; i++) {
      if (features[i].length != d) {
        throw new IllegalArgumentException("row " + i + " has " + features[i].length + " features, row 0 has " + d);
      }
      for (int j = 0; j < d; j++) {
        if (!Double.isFinite(features[i][j])) {
          throw new IllegalArgumentException("feature " + j + " of row " + i + " is not finite: " + features[i][j]);
        }
      }
      if (!Double.isFinite(labels[i])) {
        throw new IllegalArgumentException("label of row " + i + " is not finite: " + labels[i]);
      }
      copy[i] = features[i].clone();
    }
    return new LabelledData(copy, labels.clone(), d);
  }

  /** n. */
  public int size() {
    return labels.length;
  }

  /** d. */
  public int dimension() {
    return dimension;
  }

  /** A copy of the feature rows. */
  public double[][] features() {
    double[][] copy = new double[features.length][];
    for (int i = 0; i < features.length; i++) {
      copy[i] = features[i].clone();
    }
    return copy;
  }

  /** A copy of row i. */
  public double[] row(int i) {
    return features[i].clone();
  }

  public double feature(int i, int j) {
    return features[i][j];
  }

  public double label(int i) {
    return labels[i];
  }

  /** A copy of the labels. */
  public double[] labels() {
    return labels.clone();
  }

  /** The rows at the given indices, in that order. */
  public LabelledData select(int[] rows) {
    double[][] x = new double[rows.length][];
    double[] y = new double[rows.length];
    for (int k = 0; k < rows.length; k++) {
      x[k] = features[rows[k]];
      y[k] = labels[rows[k]];
    }
    return of(x, y);
  }

  /** The same rows with labels replaced (e.g. mapped to {0, 1}). */
  public LabelledData withLabels(double[] newLabels) {
    return of(features, newLabels);
  }

  /** The distinct label values, sorted. */
  public double[] distinctLabels() {
    return Arrays.stream(labels).distinct().sorted().toArray();
  }

  @Override
  public String toString() {
    return "LabelledData(n=" + size() + ", d=" + dimension + ")";
  }
}
