package org.dpstream.core.distributed;

import org.dpstream.core.erm.ErmDataset;
import org.dpstream.core.erm.FeatureBounds;

/**
 * The hinge loss l(w; x, y) = max(0, 1 - y &lt;x, w&gt;) of the linear SVM (Liu, Johansson and Shi, eq. (26)),
 * labels y in {-1, +1}, no intercept.
 *
 * <p>Subgradient: -y x where 1 - y &lt;x, w&gt; &gt; 0, else 0 (the kink takes 0, our reading of the
 * paper). Its norm is ||x||, so the loss is L-Lipschitz with L the <b>declared</b> bound on ||x||_2: by
 * default sqrt(sum_j b_j^2) from the {@link FeatureBounds}, or a tighter declared row-norm bound such as 1
 * for unit-norm rows (the paper's data sets; its L = 1 is our reconstruction). The constant is
 * public: it never looks at the data (see FeatureBounds on why). To keep the sensitivity Delta = 2L of
 * Theorem 1 true by construction, the subgradient is clipped to norm L, a no-op for every sample that
 * honours the declaration.
 *
 * <p>Immutable.
 */
public final class HingeLoss {

  private final double lipschitz;

  private HingeLoss(double lipschitz) {
    if (!(lipschitz > 0) || !Double.isFinite(lipschitz)) {
      throw new IllegalArgumentException("the row-norm bound must be positive and finite: " + lipschitz);
    }
    this.lipschitz = lipschitz;
  }

  /** L = sqrt(sum_j b_j^2), the norm bound implied by per-feature bounds. */
  public static HingeLoss ofFeatureBounds(FeatureBounds bounds) {
    return new HingeLoss(Math.sqrt(bounds.squaredNormBound()));
  }

  /** L = {@code rowNorm}, a declared public bound on every ||x||_2 (e.g. 1 for normalised rows). */
  public static HingeLoss ofRowNormBound(double rowNorm) {
    return new HingeLoss(rowNorm);
  }

  /** L, the Lipschitz constant (and the clip norm of the subgradient). */
  public double lipschitz() {
    return lipschitz;
  }

  /** max(0, 1 - y &lt;x_i, w&gt;). */
  public double value(ErmDataset data, int sample, double[] w) {
    return Math.max(0, 1 - data.label(sample) * data.margin(sample, w));
  }

  /** The mean loss (1/N) sum_i l(w; x_i, y_i), the data-fit term f of eq. (1). */
  public double meanValue(ErmDataset data, double[] w) {
    double sum = 0;
    for (int i = 0; i < data.size(); i++) {
      sum += value(data, i, w);
    }
    return sum / data.size();
  }

  /**
   * Writes the clipped subgradient of sample {@code i} at {@code w} into {@code out}.
   *
   * @throws IllegalArgumentException if the label is not -1 or +1
   */
  public void subgradient(ErmDataset data, int sample, double[] w, double[] out) {
    double y = requireSignLabel(data.label(sample));
    if (1 - y * data.margin(sample, w) <= 0) {
      java.util.Arrays.fill(out, 0);
      return;
    }
    double squaredNorm = 0;
    for (int j = 0; j < out.length; j++) {
      double x = data.feature(sample, j);
      out[j] = -y * x;
      squaredNorm += x * x;
    }
    if (squaredNorm > lipschitz * lipschitz) {
      double scale = lipschitz / Math.sqrt(squaredNorm);
      for (int j = 0; j < out.length; j++) {
        out[j] *= scale;
      }
    }
  }

  /** Fraction of samples with sign(&lt;x, w&gt;) = y (a zero margin counts as wrong). */
  public static double accuracy(ErmDataset data, double[] w) {
    int correct = 0;
    for (int i = 0; i < data.size(); i++) {
      if (data.label(i) * data.margin(i, w) > 0) {
        correct++;
      }
    }
    return (double) correct / data.size();
  }

  /** Checks that every label is -1 or +1. */
  public static void requireSignLabels(ErmDataset data) {
    for (int i = 0; i < data.size(); i++) {
      requireSignLabel(data.label(i));
    }
  }

  private static double requireSignLabel(double y) {
    if (y != 1 && y != -1) {
      throw new IllegalArgumentException("hinge-loss labels must be -1 or +1, got " + y);
    }
    return y;
  }

  @Override
  public String toString() {
    return "hinge(L=" + lipschitz + ")";
  }
}
