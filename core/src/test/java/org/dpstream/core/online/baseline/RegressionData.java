package org.dpstream.core.online.baseline;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpstream.core.geometry.LpBall;
import org.dpstream.core.geometry.LpNorm;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.privacy.accounting.PrivacyBudget;

/**
 * A linear regression y = x'theta* + U(-noise, noise) with an interior optimum, for the baseline tests.
 *
 * <p>x has iid coordinates +-s with s = d^(-1/q), so ||x||_q = 1 exactly and E xx' = s^2 I; theta* has
 * l_p norm radius/2. The population excess risk of the squared loss (x'theta - y)^2/2 is then
 * s^2 ||theta - theta*||_2^2 / 2, and its ratio to the excess risk at theta = 0 is ||theta - theta*||_2^2
 * / ||theta*||_2^2.
 */
final class RegressionData {

  final int dimension;
  final double p;
  final double radius;
  final double labelNoise;
  final double[] optimum;

  RegressionData(int dimension, double p, double radius, double labelNoise) {
    this.dimension = dimension;
    this.p = p;
    this.radius = radius;
    this.labelNoise = labelNoise;
    this.optimum = new double[dimension];
    for (int i = 0; i < dimension; i++) {
      optimum[i] = i % 2 == 0 ? 1 : -0.5;
    }
    double norm = LpNorm.of(p).valueOf(optimum);
    for (int i = 0; i < dimension; i++) {
      optimum[i] *= radius / 2 / norm;
    }
  }

  /** n samples drawn from {@code rng} with the given budget and the bounds that hold for this data. */
  BatchProblem problem(int n, PrivacyBudget budget, UniformRandomProvider rng) {
    double coordinate = Math.pow(dimension, -1 / LpNorm.dualExponent(p));
    double[][] features = new double[n][dimension];
    double[] labels = new double[n];
    for (int i = 0; i < n; i++) {
      double margin = 0;
      for (int k = 0; k < dimension; k++) {
        features[i][k] = rng.nextBoolean() ? coordinate : -coordinate;
        margin += features[i][k] * optimum[k];
      }
      labels[i] = margin + (2 * rng.nextDouble() - 1) * labelNoise;
    }
    return new BatchProblem(features, labels, GlmLoss.squared(), LpBall.of(p, radius), budget, bounds());
  }

  /** ||x||_q = 1 (up to the rounding of s, hence nextUp) and |y| &lt;= ||theta*||_p + noise. */
  DataBounds bounds() {
    return new DataBounds(Math.nextUp(1.0), radius / 2 + labelNoise);
  }

  /** (F(theta) - F(theta*)) / (F(0) - F(theta*)) = ||theta - theta*||^2 / ||theta*||^2. */
  double relativeExcessRisk(double[] theta) {
    double distance = 0;
    double scale = 0;
    for (int k = 0; k < dimension; k++) {
      distance += (theta[k] - optimum[k]) * (theta[k] - optimum[k]);
      scale += optimum[k] * optimum[k];
    }
    return distance / scale;
  }
}
