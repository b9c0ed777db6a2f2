package org.dpstream.core.distributed;

import org.dpstream.core.erm.Regularizer;

/**
 * The dual-averaging step of DP-DDA (Liu, Johansson and Shi, eq. (6)) with the prox-function
 * d(x) = ||x||^2 / 2 (the paper names none; this is our reading):
 *
 * <pre>  x = argmin_x { &lt;z, x&gt; + lambda h(x) + (gamma / 2) ||x||^2 },   lambda = iota A_{t+1}, gamma = gamma_{t+1},</pre>
 *
 * for h = psi + I_C, psi a separable {@link Regularizer} (l2, l1, elastic net: psi_j(v) = lambda_1 |v| +
 * (lambda_2 / 2) v^2) and C a {@link FeasibleSet}. Closed form, coordinate-wise with
 * c = lambda lambda_2 + gamma: x_j = -sign(z_j) max(|z_j| - lambda lambda_1, 0) / c, then restricted to C.
 * For gamma &gt; 0 this is {@link Regularizer#prox}(-z_j / gamma, lambda / gamma); it is written over the
 * weights so that the strongly convex theory schedule gamma_t = 0 (Corollaries 3.2, 3.5) works too.
 *
 * <p>Regulariser convention: {@link Regularizer#l2} is (mu / 2) ||x||^2, the paper's Section 5.2 reading; its
 * Section 5.1 writes mu ||x||^2, which is {@code l2(2 mu)} here. The indicator is not
 * scaled by iota, as the paper notes (iota I_C = I_C).
 *
 * <p>Immutable and allocation-free.
 */
public final class DualAveragingProx {

  private final Regularizer regularizer;
  private final FeasibleSet feasibleSet;

  public DualAveragingProx(Regularizer regularizer, FeasibleSet feasibleSet) {
    this.regularizer = java.util.Objects.requireNonNull(regularizer, "regularizer");
    this.feasibleSet = java.util.Objects.requireNonNull(feasibleSet, "feasibleSet");
  }

  public Regularizer regularizer() {
    return regularizer;
  }

  public FeasibleSet feasibleSet() {
    return feasibleSet;
  }

  /** mu of Assumption 1(i): the strong-convexity modulus of h (the l2 weight). */
  public double strongConvexity() {
    return regularizer.l2Weight();
  }

  /** h(x) = psi(x) for x in C; the caller keeps iterates in C, so the indicator adds 0. */
  public double value(double[] x) {
    return regularizer.value(x);
  }

  /**
   * Writes argmin_x &lt;z, x&gt; + lambda h(x) + (gamma / 2)||x||^2 into {@code out}.
   *
   * @param lambda iota A_{t+1} &gt;= 0
   * @param gamma gamma_{t+1} &gt;= 0
   * @throws IllegalStateException if the minimum does not exist: gamma = 0, no l2 part and C = R^m
   */
  public void minimise(double[] z, double lambda, double gamma, double[] out) {
    double threshold = lambda * regularizer.l1Weight();
    double curvature = lambda * regularizer.l2Weight() + gamma;
    if (curvature > 0) {
      for (int j = 0; j < z.length; j++) {
        out[j] = -softThreshold(z[j], threshold) / curvature;
      }
      feasibleSet.restrict(out);
      return;
    }
    if (!feasibleSet.bounded()) {
      throw new IllegalStateException(
          "the dual-averaging step is unbounded: gamma_t = 0 needs an l2 part in h or a bounded feasible set");
    }
    minimiseLinear(z, threshold, out);
  }

  /** Curvature 0 on a bounded set: a linear-plus-l1 objective, minimised at an extreme point. */
  private void minimiseLinear(double[] z, double threshold, double[] out) {
    if (feasibleSet.shape() == FeasibleSet.Shape.BOX) {
      for (int j = 0; j < z.length; j++) {
        double shrunk = softThreshold(z[j], threshold);
        out[j] = shrunk > 0 ? feasibleSet.boxLow() : shrunk < 0 ? feasibleSet.boxHighOrRadius() : 0;
      }
      return;
    }
    double norm = 0;
    for (int j = 0; j < z.length; j++) {
      out[j] = -softThreshold(z[j], threshold);
      norm += out[j] * out[j];
    }
    double scale = norm == 0 ? 0 : feasibleSet.boxHighOrRadius() / Math.sqrt(norm);
    for (int j = 0; j < z.length; j++) {
      out[j] *= scale;
    }
  }

  private static double softThreshold(double v, double threshold) {
    double shrunk = Math.abs(v) - threshold;
    return shrunk <= 0 ? 0 : Math.copySign(shrunk, v);
  }

  @Override
  public String toString() {
    return regularizer + " on " + feasibleSet;
  }
}
