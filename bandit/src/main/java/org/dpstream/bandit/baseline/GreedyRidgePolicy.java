package org.dpstream.bandit.baseline;

import org.dpstream.bandit.Decision;
import org.dpstream.bandit.linear.LinearDecisionRule;

/**
 * The non-private floor: greedy on per-arm ridge regression (lambda = 1) on the raw (x, r), with the
 * exact solution after every round (the chosen arm's inverse updated by Sherman-Morrison, O(d^2)). Not
 * private: for experiments only, to show what privacy costs.
 */
public final class GreedyRidgePolicy extends BaselinePolicy {

  public static final String NAME = "greedy";

  /** (X'X + I)^-1 of each arm, row-major. */
  private final double[][] inverse;
  private final double[][] moment;
  private final double[][] theta;
  private final double[] column;

  public GreedyRidgePolicy(int arms, int dimension) {
    super(arms, dimension);
    this.inverse = new double[arms][dimension * dimension];
    this.moment = new double[arms][dimension];
    this.theta = new double[arms][dimension];
    this.column = new double[dimension];
    for (double[] armInverse : inverse) {
      for (int i = 0; i < dimension; i++) {
        armInverse[i * dimension + i] = 1;
      }
    }
  }

  @Override
  public Decision decide(double[] context) {
    return new Decision(LinearDecisionRule.greedyArm(theta, rounds(), context), Decision.Phase.GREEDY, rounds());
  }

  @Override
  public void update(Decision decision, double[] context, double reward) {
    int arm = decision.arm();
    double[] a = inverse[arm];
    int d = dimension();
    // u = A^-1 x; A^-1 <- A^-1 - u u' / (1 + x' u) (A^-1 is symmetric).
    double denominator = 1;
    for (int i = 0; i < d; i++) {
      double sum = 0;
      for (int j = 0; j < d; j++) {
        sum += a[i * d + j] * context[j];
      }
      column[i] = sum;
      denominator += context[i] * sum;
    }
    for (int i = 0; i < d; i++) {
      double scaled = column[i] / denominator;
      for (int j = 0; j < d; j++) {
        a[i * d + j] -= scaled * column[j];
      }
    }
    double[] b = moment[arm];
    for (int i = 0; i < d; i++) {
      b[i] += context[i] * reward;
    }
    double[] armTheta = theta[arm];
    for (int i = 0; i < d; i++) {
      double sum = 0;
      for (int j = 0; j < d; j++) {
        sum += a[i * d + j] * b[j];
      }
      armTheta[i] = sum;
    }
    countRound();
  }

  /** theta_k = (X_k' X_k + I)^-1 X_k' r_k of an arm (a copy). */
  public double[] armParameters(int arm) {
    return theta[arm].clone();
  }

  @Override
  public String name() {
    return NAME;
  }
}
