package org.dpstream.core.privacy.noise;

import static org.dpstream.core.privacy.noise.NoiseArguments.requireLength;
import static org.dpstream.core.privacy.noise.NoiseArguments.requirePositiveDimension;
import static org.dpstream.core.privacy.noise.NoiseArguments.requirePositiveFinite;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Noise with iid Gumbel(0, scale) coordinates (the maximum-value distribution, CDF exp(-exp(-x / scale))).
 * Adding it to utilities and taking the argmax samples the exponential mechanism (the Gumbel-max trick).
 *
 * <p>Drawn as -scale ln(E) with E ~ Exp(1) from Commons RNG's Ziggurat sampler; Commons RNG has no
 * Gumbel sampler. Only the argmax is released, never a noisy value.
 */
public final class GumbelVectorNoise implements VectorNoise {

  private final int dimension;
  private final double scale;

  public GumbelVectorNoise(int dimension, double scale) {
    this.dimension = requirePositiveDimension(dimension);
    this.scale = requirePositiveFinite(scale, "scale");
  }

  @Override
  public int dimension() {
    return dimension;
  }

  public double scale() {
    return scale;
  }

  @Override
  public void sample(UniformRandomProvider bits, double[] out) {
    requireLength(out, dimension);
    ZigguratSampler.Exponential exponential = ZigguratSampler.Exponential.of(bits);
    for (int i = 0; i < dimension; i++) {
      out[i] = -scale * Math.log(exponential.sample());
    }
  }

  @Override
  public String describe() {
    return "gumbel(d=" + dimension + ", scale=" + scale + ")";
  }

  @Override
  public String toString() {
    return describe();
  }
}
