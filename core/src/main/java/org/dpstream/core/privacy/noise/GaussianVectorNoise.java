package org.dpstream.core.privacy.noise;

import static org.dpstream.core.privacy.noise.NoiseArguments.requireLength;
import static org.dpstream.core.privacy.noise.NoiseArguments.requirePositiveDimension;
import static org.dpstream.core.privacy.noise.NoiseArguments.requirePositiveFinite;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;

/**
 * Isotropic Gaussian noise N(0, sigma^2 I_d): coordinates are iid N(0, sigma^2).
 *
 * <p>Also the generalized Gaussian of Han et al. (Lemma 3.3, 2 &lt; p &lt;= infinity), see {@link
 * GeneralizedGaussianNoise#ofRescaledL2}. A floating-point sampler; the tree mechanism rounds its
 * output to a lattice (post-processing).
 */
public final class GaussianVectorNoise implements VectorNoise {

  private final int dimension;
  private final double sigma;

  /**
   * Noise with {@code dimension} iid N(0, sigma^2) coordinates.
   *
   * @throws IllegalArgumentException if {@code dimension <= 0} or {@code sigma} is not finite and
   *     &gt; 0
   */
  public GaussianVectorNoise(int dimension, double sigma) {
    this.dimension = requirePositiveDimension(dimension);
    this.sigma = requirePositiveFinite(sigma, "sigma");
  }

  @Override
  public int dimension() {
    return dimension;
  }

  /** Standard deviation of each coordinate. */
  public double sigma() {
    return sigma;
  }

  @Override
  public void sample(UniformRandomProvider bits, double[] out) {
    requireLength(out, dimension);
    ContinuousSampler coordinate = ScalarSamplers.gaussian(bits, sigma);
    Arrays.setAll(out, i -> coordinate.sample());
  }

  @Override
  public String describe() {
    return "gaussian(d=" + dimension + ", sigma=" + sigma + ")";
  }

  @Override
  public String toString() {
    return describe();
  }
}
