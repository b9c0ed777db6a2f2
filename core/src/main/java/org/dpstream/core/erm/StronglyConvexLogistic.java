package org.dpstream.core.erm;

import java.util.List;
import org.dpstream.core.privacy.accounting.PrivacyLedger;

/**
 * The problem class of the perturbation baselines of Chaudhuri, Monteleoni and Sarwate (2011): the logistic
 * loss (|l'| &lt;= 1, l'' &lt;= c = 1/4) with an l2 regulariser (lambda/2)||w||^2, on records whose l2 norm is
 * at most the public R = ||b||_2 of the declared bounds. The paper states its theorems for ||x|| &lt;= 1 and
 * (Lambda/2)||f||^2; with f = R w the two are the same problem for Lambda = lambda / R^2.
 */
final class StronglyConvexLogistic {

  /** c: the logistic loss's bound on l''. */
  static final double CURVATURE = 0.25;
  /** Tolerance and epoch cap of the minimiser the baselines release. */
  static final double SOLVER_TOLERANCE = 1e-12;
  static final int SOLVER_EPOCHS = 100_000;

  private StronglyConvexLogistic() {}

  /**
   * lambda of the problem's l2 regulariser.
   *
   * @throws IllegalArgumentException unless the loss is logistic and the regulariser l2 (with lambda &gt; 0
   *     if {@code needPositive})
   */
  static double requireLogisticL2(ErmProblem problem, String algorithm, boolean needPositive) {
    CompositeObjective objective = problem.objective();
    if (!(objective.residualBound() <= 1)) {
      throw new IllegalArgumentException(algorithm + " needs the logistic loss (bounded gradient and curvature)");
    }
    Regularizer regularizer = objective.regularizer();
    boolean l2 = regularizer.kind() == Regularizer.Kind.L2
        || (regularizer.kind() == Regularizer.Kind.NONE && !needPositive);
    if (!l2 || (needPositive && !(regularizer.l2Weight() > 0))) {
      throw new IllegalArgumentException(algorithm + " needs the l2 regulariser with lambda > 0, got " + regularizer);
    }
    return regularizer.l2Weight();
  }

  /** R = ||b||_2, the public bound on ||x_i||. */
  static double normBound(ErmDataset data) {
    return Math.sqrt(data.bounds().squaredNormBound());
  }

  /** A run with no per-pass history: w^0 = 0 and the released model. */
  static ErmRun release(String algorithm, double[] weights, PrivacyLedger ledger, long epochs, String description) {
    return new ErmRun(algorithm, weights, List.of(new double[weights.length], weights), ledger, epochs, description);
  }
}
