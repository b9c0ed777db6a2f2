package org.dpstream.core.distributed;

import org.dpstream.core.erm.ErmDataset;

/**
 * Non-private reference values F* = min_x F(x), F(x) = (1/N) sum_i hinge(x; x_i, y_i) + h(x), for
 * suboptimality curves and tests. <b>Not private</b>: it reads all the data; never release its output.
 *
 * <ul>
 *   <li>h = (mu/2)||x||^2 on R^m: dual coordinate descent for the L1-loss linear SVM (Hsieh, Chang, Lin,
 *       Keerthi, Sundararajan, ICML 2008) with C = 1 / (mu N), run to a projected-gradient tolerance; this is
 *       liblinear's solver, more accurate than the paper's scikit-learn run.
 *   <li>Anything else (l1, elastic net, constraints): full-batch proximal subgradient descent with steps
 *       eta / sqrt(k), keeping the best F seen (an upper bound on F*, so suboptimality may be slightly
 *       under-stated).
 * </ul>
 */
public final class HingeReferenceSolver {

  /**
   * @param weights the best point found
   * @param value F(weights)
   */
  public record Solution(double[] weights, double value) {
    public Solution {
      weights = weights.clone();
    }

    @Override
    public double[] weights() {
      return weights.clone();
    }
  }

  private HingeReferenceSolver() {}

  /** F(x). */
  public static double objective(ErmDataset data, HingeLoss loss, DualAveragingProx prox, double[] x) {
    return loss.meanValue(data, x) + prox.value(x);
  }

  /** Chooses the method by the shape of h (see the class comment). */
  public static Solution solve(ErmDataset data, HingeLoss loss, DualAveragingProx prox, int maxIterations) {
    boolean ridgeOnly = prox.regularizer().l1Weight() == 0 && prox.regularizer().l2Weight() > 0
        && prox.feasibleSet().shape() == FeasibleSet.Shape.WHOLE_SPACE;
    return ridgeOnly
        ? dualCoordinateDescent(data, loss, prox, 1e-10, maxIterations)
        : proximalSubgradient(data, loss, prox, 1.0, maxIterations);
  }

  /** Hsieh et al. (2008), Algorithm 1, cyclic order, for (1/N) sum hinge + (mu/2)||x||^2. */
  static Solution dualCoordinateDescent(ErmDataset data, HingeLoss loss, DualAveragingProx prox, double tolerance, int maxEpochs) {
    int n = data.size();
    int m = data.dimension();
    double upper = 1 / (prox.regularizer().l2Weight() * n);
    double[] alpha = new double[n];
    double[] w = new double[m];
    double[] squaredNorms = new double[n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < m; j++) {
        squaredNorms[i] += data.feature(i, j) * data.feature(i, j);
      }
    }
    for (int epoch = 0; epoch < maxEpochs; epoch++) {
      double largestViolation = 0;
      for (int i = 0; i < n; i++) {
        if (squaredNorms[i] == 0) {
          continue;
        }
        double y = data.label(i);
        double gradient = y * data.margin(i, w) - 1;
        double projected = alpha[i] == 0 ? Math.min(gradient, 0) : alpha[i] == upper ? Math.max(gradient, 0) : gradient;
        largestViolation = Math.max(largestViolation, Math.abs(projected));
        if (projected != 0) {
          double updated = Math.min(Math.max(alpha[i] - gradient / squaredNorms[i], 0), upper);
          double change = (updated - alpha[i]) * y;
          alpha[i] = updated;
          for (int j = 0; j < m; j++) {
            w[j] += change * data.feature(i, j);
          }
        }
      }
      if (largestViolation < tolerance) {
        break;
      }
    }
    return new Solution(w, objective(data, loss, prox, w));
  }

  /** Best-iterate proximal subgradient descent x_{k+1} = prox_{eta_k h}(x_k - eta_k g_k), eta_k = eta / sqrt(k). */
  static Solution proximalSubgradient(ErmDataset data, HingeLoss loss, DualAveragingProx prox, double eta, int iterations) {
    int m = data.dimension();
    double[] x = new double[m];
    double[] gradient = new double[m];
    double[] sample = new double[m];
    double[] shifted = new double[m];
    double[] best = x.clone();
    double bestValue = objective(data, loss, prox, x);
    for (int k = 1; k <= iterations; k++) {
      java.util.Arrays.fill(gradient, 0);
      for (int i = 0; i < data.size(); i++) {
        loss.subgradient(data, i, x, sample);
        for (int j = 0; j < m; j++) {
          gradient[j] += sample[j] / data.size();
        }
      }
      double step = eta / Math.sqrt(k);
      // prox_{step h}(u) = argmin <-u/step, x> + h(x) + ||x||^2 / (2 step).
      for (int j = 0; j < m; j++) {
        shifted[j] = -(x[j] - step * gradient[j]) / step;
      }
      prox.minimise(shifted, 1, 1 / step, x);
      double value = objective(data, loss, prox, x);
      if (value < bestValue) {
        bestValue = value;
        best = x.clone();
      }
    }
    return new Solution(best, bestValue);
  }
}
