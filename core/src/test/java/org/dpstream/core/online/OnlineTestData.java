package org.dpstream.core.online;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpstream.core.geometry.LpBall;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.privacy.accounting.PrivacyBudget;

/** A well-conditioned linear regression stream with an interior optimum, for the estimator tests. */
final class OnlineTestData {

  final int dimension;
  final double[] optimum;
  private final UniformRandomProvider rng;
  private final double labelNoise;

  /**
   * x has iid coordinates +-1/sqrt(d) (so E xx' = I/d and ||x||_q = d^(1/q - 1/2) exactly), y = x'theta*
   * + U(-labelNoise, labelNoise); theta* has lp norm radius/2, well inside the ball.
   */
  OnlineTestData(int dimension, double p, double radius, double labelNoise, UniformRandomProvider rng) {
    this.dimension = dimension;
    this.rng = rng;
    this.labelNoise = labelNoise;
    this.optimum = new double[dimension];
    for (int i = 0; i < dimension; i++) {
      optimum[i] = (i % 2 == 0 ? 1 : -0.5);
    }
    double norm = LpBall.of(p, 1).norm().valueOf(optimum);
    for (int i = 0; i < dimension; i++) {
      optimum[i] *= radius / 2 / norm;
    }
  }

  double[] features() {
    double[] x = new double[dimension];
    double scale = 1 / Math.sqrt(dimension);
    for (int i = 0; i < dimension; i++) {
      x[i] = rng.nextBoolean() ? scale : -scale;
    }
    return x;
  }

  double label(double[] x) {
    double y = 0;
    for (int i = 0; i < dimension; i++) {
      y += x[i] * optimum[i];
    }
    return y + (2 * rng.nextDouble() - 1) * labelNoise;
  }

  /** F(theta) - F(theta*) = (theta - theta*)' E[xx'] (theta - theta*) / 2 = ||theta - theta*||^2 / (2d). */
  double excessRisk(double[] theta) {
    double sum = 0;
    for (int i = 0; i < dimension; i++) {
      sum += (theta[i] - optimum[i]) * (theta[i] - optimum[i]);
    }
    return sum / (2 * dimension);
  }

  /** Public bounds that hold for this data: ||x||_q and |y|. */
  DataBounds bounds(double p, double radius) {
    double q = org.dpstream.core.geometry.LpNorm.dualExponent(p);
    double featureNorm = Double.isInfinite(q) ? 1 / Math.sqrt(dimension) : Math.pow(dimension, 1 / q - 0.5);
    // |x'theta*| <= ||x||_q ||theta*||_p = featureNorm * radius / 2.
    return new DataBounds(Math.nextUp(featureNorm), featureNorm * radius / 2 + labelNoise);
  }

  OnlineModelSpec spec(String id, double p, double radius, double epsilon, long horizon, AccountantChoice accountant) {
    return OnlineModelSpec.withDerivedClipping(id, dimension, GlmLoss.squared(), LpBall.of(p, radius),
        new PrivacyBudget(epsilon, 1e-5), horizon, bounds(p, radius), accountant);
  }
}
