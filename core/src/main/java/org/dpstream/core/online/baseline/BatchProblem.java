package org.dpstream.core.online.baseline;

import java.util.Objects;
import org.dpstream.core.geometry.LpBall;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.loss.SampleLoss;
import org.dpstream.core.privacy.accounting.PrivacyBudget;

/**
 * A bounded data set and the problem an offline private baseline solves: minimise the empirical risk of
 * {@code loss} over {@code domain} with (epsilon, delta)-DP w.r.t. replacing one sample.
 *
 * <p><b>Validation.</b> At least one sample; {@code features} rectangular with at least one column;
 * {@code labels} of the same length; every feature and label finite; every label admissible for the
 * loss (checked by evaluating one gradient per sample). {@code bounds} are public declarations (see
 * {@link DataBounds}); samples outside them are <em>not</em> rejected, their gradients are clipped.
 *
 * <p><b>Immutability.</b> The arrays are copied on construction, and the accessors {@link #features()}
 * and {@link #labels()} return copies. The algorithms read the held rows through {@link #row(int)} and
 * {@link #label(int)} without copying.
 *
 * @param features n rows of d features
 * @param labels n labels
 * @param loss per-sample loss with its Lipschitz and smoothness bounds
 * @param domain the constraint set, an l_p ball
 * @param budget (epsilon, delta) of the released parameters
 * @param bounds declared bounds on ||x||_q and |y|, q the dual exponent of the domain's p
 */
public record BatchProblem(double[][] features, double[] labels, SampleLoss loss, LpBall domain,
    PrivacyBudget budget, DataBounds bounds) {

  /** @throws IllegalArgumentException or NullPointerException for the cases in the class comment */
  public BatchProblem {
    Objects.requireNonNull(features, "features");
    Objects.requireNonNull(labels, "labels");
    Objects.requireNonNull(loss, "loss");
    Objects.requireNonNull(domain, "domain");
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(bounds, "bounds");
    features = copyRectangular(features);
    labels = copyFinite(labels, "labels");
    if (labels.length != features.length) {
      throw new IllegalArgumentException(
          "labels.length " + labels.length + " differs from the number of feature rows " + features.length);
    }
    requireAdmissibleLabels(features, labels, loss);
  }

  /** n, the number of samples. */
  public int size() {
    return labels.length;
  }

  /** d, the number of features. */
  public int dimension() {
    return features[0].length;
  }

  /** A copy of the feature rows. */
  @Override
  public double[][] features() {
    double[][] copy = new double[features.length][];
    for (int i = 0; i < features.length; i++) {
      copy[i] = features[i].clone();
    }
    return copy;
  }

  /** A copy of the labels. */
  @Override
  public double[] labels() {
    return labels.clone();
  }

  /** The held feature row i, not copied: callers in this package must not modify it. */
  double[] row(int i) {
    return features[i];
  }

  double label(int i) {
    return labels[i];
  }

  private static double[][] copyRectangular(double[][] rows) {
    if (rows.length == 0) {
      throw new IllegalArgumentException("a batch problem needs at least one sample");
    }
    int dimension = Objects.requireNonNull(rows[0], "features[0]").length;
    if (dimension == 0) {
      throw new IllegalArgumentException("features must have at least one column");
    }
    double[][] copy = new double[rows.length][];
    for (int i = 0; i < rows.length; i++) {
      double[] row = rows[i];
      if (row == null) {
        throw new NullPointerException("features[" + i + "]");
      }
      if (row.length != dimension) {
        throw new IllegalArgumentException(
            "ragged features: row " + i + " has " + row.length + " columns, row 0 has " + dimension);
      }
      copy[i] = copyFinite(row, "features[" + i + "]");
    }
    return copy;
  }

  private static double[] copyFinite(double[] values, String name) {
    for (int j = 0; j < values.length; j++) {
      if (!Double.isFinite(values[j])) {
        throw new IllegalArgumentException(name + "[" + j + "] is not finite: " + values[j]);
      }
    }
    return values.clone();
  }

  /** The loss throws for a label outside its range (e.g. logistic labels outside [0, 1]). */
  private static void requireAdmissibleLabels(double[][] rows, double[] labels, SampleLoss loss) {
    double[] origin = new double[rows[0].length];
    double[] scratch = new double[rows[0].length];
    for (int i = 0; i < rows.length; i++) {
      try {
        loss.gradient(origin, rows[i], labels[i], scratch);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("sample " + i + " is not admissible for " + loss + ": " + e.getMessage(), e);
      }
    }
  }
}
