package org.dpstream.core.privacy.audit;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.dpstream.core.privacy.noise.VectorNoise;

/**
 * Test noise: independent Laplace(0, scale) coordinates. Commons RNG has no Laplace sampler, so each
 * coordinate is an Exp(scale) magnitude with a fair random sign, which is exactly Laplace(0, scale).
 */
final class LaplaceNoise implements VectorNoise {

  private final int dimension;
  private final double scale;

  LaplaceNoise(int dimension, double scale) {
    this.dimension = dimension;
    this.scale = scale;
  }

  /** The pure eps-DP calibration for a query of L1 sensitivity {@code sensitivity}: scale = S / eps. */
  static LaplaceNoise calibrated(int dimension, double sensitivity, double epsilon) {
    return new LaplaceNoise(dimension, sensitivity / epsilon);
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
    ZigguratSampler.Exponential magnitude = ZigguratSampler.Exponential.of(bits, scale);
    for (int i = 0; i < dimension; i++) {
      double draw = magnitude.sample();
      out[i] = bits.nextBoolean() ? draw : -draw;
    }
  }

  @Override
  public String describe() {
    return "laplace(d=" + dimension + ", scale=" + scale + ")";
  }
}
