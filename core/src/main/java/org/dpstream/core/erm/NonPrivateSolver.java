package org.dpstream.core.erm;

import java.util.Objects;

/**
 * A non-private reference solver for F* = min_w f(w) + psi(w): cyclic proximal coordinate descent with the
 * data's own coordinate smoothness M_j = k (1/n) ||X_:j||^2 (exact coordinate minimisation for the squared
 * loss; an upper bound on the coordinate curvature for the logistic loss), run until no coordinate moves by
 * more than the tolerance in a full epoch.
 *
 * <p><b>Not private</b>: it reads the data freely. Use it only for tests and for the bench's relative error
 * (F(w) - F*) / F*, never to produce a released model. Margins are maintained incrementally, so an epoch
 * costs O(n d).
 */
public final class NonPrivateSolver {

  /**
   * The solver's output.
   *
   * @param weights the approximate minimiser
   * @param value F(weights)
   * @param epochs full cyclic passes performed
   * @param converged whether the last epoch moved no coordinate by more than the tolerance
   */
  public record Solution(double[] weights, double value, int epochs, boolean converged) {
    public Solution {
      weights = weights.clone();
    }

    @Override
    public double[] weights() {
      return weights.clone();
    }
  }

  private NonPrivateSolver() {}

  /** {@link #solve(ErmDataset, CompositeObjective, double, int)} with tolerance 1e-12, 100 000 epochs. */
  public static Solution solve(ErmDataset data, CompositeObjective objective) {
    return solve(data, objective, 1e-12, 100_000);
  }

  /**
   * Minimises F from w = 0.
   *
   * @param tolerance stop once an epoch changes no coordinate by more than this (absolute)
   * @param maxEpochs upper bound on the epochs
   */
  public static Solution solve(ErmDataset data, CompositeObjective objective, double tolerance, int maxEpochs) {
    return solve(data, objective, new double[data.dimension()], tolerance, maxEpochs);
  }

  /**
   * Minimises F(w) + c'w from w = 0: the objective perturbation baseline's perturbed objective. The
   * reported value is F(w) without the linear term.
   *
   * @param linearTerm c, of the data's dimension
   */
  static Solution solve(ErmDataset data, CompositeObjective objective, double[] linearTerm, double tolerance,
      int maxEpochs) {
    Objects.requireNonNull(data, "data");
    if (linearTerm.length != data.dimension()) {
      throw new IllegalArgumentException("linear term of dimension " + linearTerm.length + ", data " + data.dimension());
    }
    objective.requireCompatible(data);
    int n = data.size();
    int d = data.dimension();
    double[] smoothness = new double[d];
    for (int j = 0; j < d; j++) {
      double squared = 0;
      for (double x : data.columnView(j)) {
        squared += x * x;
      }
      smoothness[j] = objective.curvatureBound() * squared / n;
    }
    Regularizer regularizer = objective.regularizer();
    double[] labels = data.labelsView();
    double[] w = new double[d];
    double[] margins = new double[n];
    int epoch = 0;
    boolean converged = false;
    while (!converged && epoch < maxEpochs) {
      epoch++;
      double largestMove = 0;
      for (int j = 0; j < d; j++) {
        double[] column = data.columnView(j);
        double updated;
        if (smoothness[j] == 0) {
          // The data ignore w_j: minimise psi_j alone (0 for any regulariser; keep w_j for none).
          updated = regularizer.l1Weight() > 0 || regularizer.l2Weight() > 0 ? 0 : w[j];
          if (linearTerm[j] != 0 && regularizer.l2Weight() > 0) {
            // argmin_v lambda_1 |v| + (lambda_2 / 2) v^2 + c v
            updated = -Math.signum(linearTerm[j])
                * Math.max(Math.abs(linearTerm[j]) - regularizer.l1Weight(), 0) / regularizer.l2Weight();
          }
        } else {
          double gradient = 0;
          for (int i = 0; i < n; i++) {
            gradient += column[i] * objective.residual(margins[i], labels[i]);
          }
          gradient = gradient / n + linearTerm[j];
          double step = 1 / smoothness[j];
          updated = regularizer.prox(w[j] - step * gradient, step);
        }
        double change = updated - w[j];
        if (change != 0) {
          w[j] = updated;
          for (int i = 0; i < n; i++) {
            margins[i] += change * column[i];
          }
          largestMove = Math.max(largestMove, Math.abs(change));
        }
      }
      converged = largestMove <= tolerance;
    }
    return new Solution(w, objective.value(w, data), epoch, converged);
  }
}
