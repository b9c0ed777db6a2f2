package org.dpstream.core.privacy.noise;

import static org.dpstream.core.privacy.noise.NoiseArguments.requireLength;
import static org.dpstream.core.privacy.noise.NoiseArguments.requirePositiveDimension;
import static org.dpstream.core.privacy.noise.NoiseArguments.requirePositiveFinite;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;

/**
 * Noise with iid Laplace(0, scale) coordinates, density proportional to exp(-||z||_1 / scale).
 *
 * <p>Not from Han et al.: the classical Laplace mechanism, for l_1 sensitivity. A floating-point
 * sampler; the tree mechanism rounds its output to a lattice (post-processing).
 */
public final class LaplaceVectorNoise implements VectorNoise {

  private final int dimension;
  private final double scale;

  /**
   * Noise with {@code dimension} iid Laplace(0, scale) coordinates.
   *
   * @throws IllegalArgumentException if {@code dimension <= 0} or {@code scale} is not finite and
   *     &gt; 0
   */
  public LaplaceVectorNoise(int dimension, double scale) {
    this.dimension = requirePositiveDimension(dimension);
    this.scale = requirePositiveFinite(scale, "scale");
  }

  @Override
  public int dimension() {
    return dimension;
  }

  /** Laplace scale b of each coordinate (standard deviation b * sqrt(2)). */
  public double scale() {
    return scale;
  }

  @Override
  public void sample(UniformRandomProvider bits, double[] out) {
    requireLength(out, dimension);
    ContinuousSampler coordinate = ScalarSamplers.laplace(bits, scale);
    Arrays.setAll(out, i -> coordinate.sample());
  }

  @Override
  public String describe() {
    return "laplace(d=" + dimension + ", scale=" + scale + ")";
  }

  @Override
  public String toString() {
    return describe();
  }
}
