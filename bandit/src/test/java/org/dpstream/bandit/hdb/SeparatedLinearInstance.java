package org.dpstream.bandit.hdb;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * A well-separated linear bandit (identity link) with three arms: contexts x with x_j uniform in
 * [-1, 1] for j &lt; d - 1 and an intercept x_{d-1} = 1 (so ||x||_inf = 1), rewards x' theta*_a +
 * N(0, 0.05^2). Arm 0 (theta* = 0.5 e_0 + 0.1 e_int) is best when x_0 &gt; 0, arm 1 (-0.5 e_0 + 0.1
 * e_int) when x_0 &lt; 0, and arm 2 (-0.3 e_int) is never best: its mean is at least 0.4 below the best
 * for every context (the suboptimal set of Assumption 4.1 with h_sub up to 0.4). ||theta*||_1 &lt;= 0.6.
 */
final class SeparatedLinearInstance {

  static final int ARMS = 3;
  static final double REWARD_NOISE = 0.05;

  private final int dimension;
  private final double[][] truth;
  private final UniformRandomProvider bits;
  private final ZigguratSampler.NormalizedGaussian gaussian;

  SeparatedLinearInstance(int dimension, long seed) {
    this.dimension = dimension;
    int intercept = dimension - 1;
    this.truth = new double[ARMS][dimension];
    truth[0][0] = 0.5;
    truth[0][intercept] = 0.1;
    truth[1][0] = -0.5;
    truth[1][intercept] = 0.1;
    truth[2][intercept] = -0.3;
    this.bits = TestRandomness.bits(seed);
    this.gaussian = ZigguratSampler.NormalizedGaussian.of(bits);
  }

  double[] nextContext() {
    double[] x = new double[dimension];
    for (int j = 0; j < dimension - 1; j++) {
      x[j] = 2 * bits.nextDouble() - 1;
    }
    x[dimension - 1] = 1;
    return x;
  }

  double meanReward(double[] x, int arm) {
    return dot(truth[arm], x);
  }

  static double dot(double[] theta, double[] x) {
    double sum = 0;
    for (int j = 0; j < x.length; j++) {
      sum += theta[j] * x[j];
    }
    return sum;
  }

  double nextReward(double[] x, int arm) {
    return meanReward(x, arm) + REWARD_NOISE * gaussian.sample();
  }

  int bestArm(double[] x) {
    int best = 0;
    for (int a = 1; a < ARMS; a++) {
      if (meanReward(x, a) > meanReward(x, best)) {
        best = a;
      }
    }
    return best;
  }

  /** Expected regret of playing {@code arm} on x. */
  double regret(double[] x, int arm) {
    return meanReward(x, bestArm(x)) - meanReward(x, arm);
  }
}
