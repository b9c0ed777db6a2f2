package org.dpstream.core.erm;

import java.util.Objects;
import org.dpstream.core.loss.GlmLoss;

/**
 * The composite empirical risk F(w) = f(w) + psi(w), f(w) = (1/n) sum_i l(x_i' w, y_i), of a generalised
 * linear data-fit loss ({@link GlmLoss}: squared, or logistic with labels in [0, 1]) and a separable
 * {@link Regularizer} psi (Mangold et al. 2022, eq. (1)).
 *
 * <p><b>Smoothness and Lipschitz constants come from the declared {@link FeatureBounds}</b>, never from
 * the data, so that step sizes, clipping thresholds and importance probabilities are public (see
 * FeatureBounds). With k = sup zeta' of the link (1 squared, 1/4 logistic) and |x_ij| &lt;= b_j, the Hessian
 * of f is (1/n) sum_i zeta'(x_i' w) x_i x_i', whose entries satisfy |H_jl| &lt;= k b_j b_l. Hence:
 * <ul>
 *   <li>{@link #coordinateSmoothness}: M_j = k b_j^2 bounds H_jj, the coordinate-wise smoothness DP-CD
 *       needs (Mangold et al. use (1/n)||X_:j||^2, a data statistic; ours is its public upper bound);
 *   <li>{@link #blockSmoothness}: M_j = k b_j sum_{l in B(j)} b_l bounds the block H_AA by Gershgorin
 *       (a symmetric matrix is below the diagonal of its absolute row sums), the block-restricted
 *       M-smoothness a simultaneous (Jacobi) update of a block with steps 1/M_j needs; equal to the
 *       coordinate constant for singleton blocks;
 *   <li>{@link #globalSmoothness}: beta = k sum_j b_j^2 &gt;= lambda_max(H), for (proximal) SGD.
 * </ul>
 * The regulariser is handled by its prox, so these are the constants of f alone.
 *
 * <p>Immutable.
 */
public final class CompositeObjective {

  private final GlmLoss loss;
  private final Regularizer regularizer;

  private CompositeObjective(GlmLoss loss, Regularizer regularizer) {
    this.loss = Objects.requireNonNull(loss, "loss");
    this.regularizer = Objects.requireNonNull(regularizer, "regularizer");
  }

  public static CompositeObjective of(GlmLoss loss, Regularizer regularizer) {
    return new CompositeObjective(loss, regularizer);
  }

  public GlmLoss loss() {
    return loss;
  }

  public Regularizer regularizer() {
    return regularizer;
  }

  /** lambda of the regulariser (its overall weight). */
  public double lambda() {
    return regularizer.lambda();
  }

  /** d l / d s at margin s: zeta(s) - y. The per-sample gradient is this times x_i. */
  public double residual(double margin, double label) {
    return loss.link().mean(margin) - label;
  }

  /** l(s, y). */
  double sampleLoss(double margin, double label) {
    return loss.link().matchingLoss(margin, label);
  }

  /**
   * A public bound on |zeta(s) - y| for all margins and admissible labels: 1 for the logistic link, +inf
   * for the squared loss (which is therefore not Lipschitz and needs clipping).
   */
  public double residualBound() {
    return loss.link().residualBound(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);
  }

  /** f(w) = (1/n) sum_i l(x_i' w, y_i). */
  public double dataFit(double[] w, ErmDataset data) {
    requireDimension(w, data);
    double sum = 0;
    for (int i = 0; i < data.size(); i++) {
      sum += sampleLoss(data.margin(i, w), data.label(i));
    }
    return sum / data.size();
  }

  /** F(w) = f(w) + psi(w). */
  public double value(double[] w, ErmDataset data) {
    return dataFit(w, data) + regularizer.value(w);
  }

  /** Checks every label against the loss (e.g. [0, 1] for logistic). */
  public void requireCompatible(ErmDataset data) {
    for (int i = 0; i < data.size(); i++) {
      try {
        loss.requireLabel(data.label(i));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("record " + i + ": " + e.getMessage(), e);
      }
    }
  }

  /** M_j = k b_j^2, the public coordinate-wise smoothness of f. */
  public double[] coordinateSmoothness(FeatureBounds bounds) {
    double k = curvatureBound();
    double[] m = new double[bounds.dimension()];
    for (int j = 0; j < m.length; j++) {
      m[j] = k * bounds.bound(j) * bounds.bound(j);
    }
    return m;
  }

  /** M_j = k b_j sum_{l in B(j)} b_l, the public block-restricted smoothness of f (Gershgorin). */
  public double[] blockSmoothness(FeatureBounds bounds, BlockPartition partition) {
    if (partition.dimension() != bounds.dimension()) {
      throw new IllegalArgumentException("partition of " + partition.dimension()
          + " coordinates for " + bounds.dimension() + " features");
    }
    double k = curvatureBound();
    double[] m = new double[bounds.dimension()];
    for (int u = 0; u < partition.blockCount(); u++) {
      double blockSum = 0;
      for (int j : partition.blockView(u)) {
        blockSum += bounds.bound(j);
      }
      for (int j : partition.blockView(u)) {
        m[j] = k * bounds.bound(j) * blockSum;
      }
    }
    return m;
  }

  /** beta = k sum_j b_j^2, the public l2 smoothness of f. */
  public double globalSmoothness(FeatureBounds bounds) {
    return curvatureBound() * bounds.squaredNormBound();
  }

  /** k = sup zeta'. */
  double curvatureBound() {
    return loss.link().derivativeBound();
  }

  private static void requireDimension(double[] w, ErmDataset data) {
    if (w.length != data.dimension()) {
      throw new IllegalArgumentException(
          "weights have dimension " + w.length + ", data " + data.dimension());
    }
  }

  @Override
  public String toString() {
    return loss + " + " + regularizer;
  }
}
