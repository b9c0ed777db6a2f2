package org.dpstream.core.privacy.audit;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.dpstream.core.privacy.noise.VectorNoise;

/** Test noise: independent N(0, sigma^2) coordinates. */
final class GaussianNoise implements VectorNoise {

  private final int dimension;
  private final double sigma;

  GaussianNoise(int dimension, double sigma) {
    this.dimension = dimension;
    this.sigma = sigma;
  }

  /**
   * The classical (eps, delta) calibration for L2 sensitivity S, valid for eps <= 1 (Dwork and Roth
   * 2014, Theorem A.1): sigma = S sqrt(2 ln(1.25 / delta)) / eps.
   */
  static GaussianNoise classicalCalibration(int dimension, double sensitivity, double epsilon,
      double delta) {
    return new GaussianNoise(dimension, sensitivity * Math.sqrt(2 * Math.log(1.25 / delta)) / epsilon);
  }

  double sigma() {
    return sigma;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public void sample(UniformRandomProvider bits, double[] out) {
    if (out.length != dimension) {
      throw new IllegalArgumentException("out has length " + out.length + ", need " + dimension);
    }
    ZigguratSampler.NormalizedGaussian standard = ZigguratSampler.NormalizedGaussian.of(bits);
    for (int i = 0; i < dimension; i++) {
      out[i] = sigma * standard.sample();
    }
  }

  @Override
  public String describe() {
    return "gaussian(d=" + dimension + ", sigma=" + sigma + ")";
  }
}
