package org.dpstream.demo;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.NormalizedGaussianSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.geometry.LpNorm;

/**
 * The synthetic linear regression of Han et al., section 5.2 (the setting of the bench's {@code ofw}
 * experiment, whose {@code RegressionDataset} holds the same recipe as arrays; the demo does not
 * depend on bench):
 *
 * <ul>
 *   <li>x ~ N(0, 0.05^2 I_d), normalised to unit q-norm (1/p + 1/q = 1);
 *   <li>theta* with its first min(5, d) entries 1, the rest 0, normalised to unit p-norm;
 *   <li>y = &lt;x, theta*&gt; + N(0, 0.05^2).
 * </ul>
 *
 * <p>This is simulation randomness, never privacy noise: a seeded Commons RNG generator, so a seed
 * gives the same stream every run. Not thread-safe; one generator per model and thread.
 */
final class SyntheticRegression {

  static final double FEATURE_SD = 0.05;
  static final double LABEL_NOISE_SD = 0.05;
  static final int SUPPORT = 5;
  /** ||x||_q = 1 by construction. */
  static final double FEATURE_NORM_BOUND = 1.0;
  /**
   * Declared bound on |y|: |&lt;x, theta*&gt;| &lt;= 1 and the label noise stays within 5 standard
   * deviations except with probability about 6e-7. A rarer label is clipped by the service like any
   * oversized input, so privacy never depends on this bound holding.
   */
  static final double LABEL_BOUND = 1.0 + 5 * LABEL_NOISE_SD;

  private final LpNorm dualNorm;
  private final double[] thetaStar;
  private final NormalizedGaussianSampler gaussian;

  SyntheticRegression(double p, int dimension, long seed) {
    if (dimension < 1) {
      throw new IllegalArgumentException("dimension must be positive: " + dimension);
    }
    LpNorm norm = LpNorm.of(p);
    this.dualNorm = norm.dual();
    this.thetaStar = thetaStar(norm, dimension);
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    this.gaussian = ZigguratSampler.NormalizedGaussian.of(rng);
  }

  static double[] thetaStar(LpNorm norm, int dimension) {
    double[] theta = new double[dimension];
    for (int i = 0; i < Math.min(SUPPORT, dimension); i++) {
      theta[i] = 1.0;
    }
    double length = norm.valueOf(theta);
    for (int i = 0; i < dimension; i++) {
      theta[i] /= length;
    }
    return theta;
  }

  double[] thetaStar() {
    return thetaStar.clone();
  }

  LabelledPoint next() {
    int d = thetaStar.length;
    double[] x = new double[d];
    double length;
    do {
      for (int i = 0; i < d; i++) {
        x[i] = FEATURE_SD * gaussian.sample();
      }
      length = dualNorm.valueOf(x);
    } while (!(length > 0)); // probability zero; guards the division
    double margin = 0;
    for (int i = 0; i < d; i++) {
      x[i] /= length;
      margin += x[i] * thetaStar[i];
    }
    return new LabelledPoint(x, margin + LABEL_NOISE_SD * gaussian.sample());
  }

  /** {@code size} held-out points; draw it before the stream so the test set does not depend on its length. */
  TestSet testSet(int size) {
    if (size < 1) {
      throw new IllegalArgumentException("test set size must be positive: " + size);
    }
    LabelledPoint[] points = new LabelledPoint[size];
    for (int i = 0; i < size; i++) {
      points[i] = next();
    }
    return new TestSet(points);
  }
}
