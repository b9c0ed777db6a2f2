package org.dpstream.core.privacy.noise;

import static org.dpstream.core.privacy.noise.NoiseArguments.requirePositiveFinite;

import java.util.Objects;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.AhrensDieterMarsagliaTsangGammaSampler;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.GaussianSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Scalar samplers bound to a caller's bit source: Gaussian, Gamma, Laplace and the generalized
 * normal that Algorithm 4 of Han et al., "On Private Online Convex Optimization: Optimal
 * Algorithms in l_p-Geometry and High Dimensional Contextual Bandits", draws its coordinates from.
 *
 * <p>Contract: each factory validates its parameters (finite and &gt; 0, else {@link
 * IllegalArgumentException}) and returns a sampler that draws only from {@code bits}, so a draw
 * is a deterministic function of those bits. Samplers are cheap to create; create one per use.
 *
 * <p>These are floating-point samplers (Commons RNG Ziggurat and Marsaglia-Tsang). They make no
 * claim about floating-point side channels; the tree mechanism rounds noise to a lattice as
 * post-processing.
 */
public final class ScalarSamplers {

  private ScalarSamplers() {}

  /** N(0, sigma^2). */
  public static ContinuousSampler gaussian(UniformRandomProvider bits, double sigma) {
    requirePositiveFinite(sigma, "sigma");
    return GaussianSampler.of(ZigguratSampler.NormalizedGaussian.of(requireBits(bits)), 0, sigma);
  }

  /** Gamma with the given shape k and scale theta: density proportional to x^(k-1) e^(-x/theta). */
  public static ContinuousSampler gamma(UniformRandomProvider bits, double shape, double scale) {
    requirePositiveFinite(shape, "shape");
    requirePositiveFinite(scale, "scale");
    return AhrensDieterMarsagliaTsangGammaSampler.of(requireBits(bits), shape, scale);
  }

  /** Laplace(0, scale): density proportional to exp(-|x| / scale). */
  public static ContinuousSampler laplace(UniformRandomProvider bits, double scale) {
    requirePositiveFinite(scale, "scale");
    // Commons RNG 1.7 has no Laplace sampler: Laplace(b) is a fair sign times Exponential(mean b).
    ContinuousSampler magnitude = ZigguratSampler.Exponential.of(requireBits(bits), scale);
    return () -> withRandomSign(bits, magnitude.sample());
  }

  /**
   * Generalized normal with shape b and scale alpha: density proportional to exp(-|x/alpha|^b).
   * Shape 1 is Laplace(alpha), shape 2 is N(0, alpha^2/2).
   */
  public static ContinuousSampler generalizedNormal(
      UniformRandomProvider bits, double shape, double scale) {
    requirePositiveFinite(shape, "shape");
    requirePositiveFinite(scale, "scale");
    double inverseShape = 1 / shape;
    // Hand-written, Commons RNG has none: |X/alpha|^b ~ Gamma(1/b, 1), so X = sign alpha G^(1/b).
    ContinuousSampler powered = gamma(bits, inverseShape, 1);
    return () -> withRandomSign(bits, scale * Math.pow(powered.sample(), inverseShape));
  }

  static double withRandomSign(UniformRandomProvider bits, double magnitude) {
    return bits.nextBoolean() ? magnitude : -magnitude;
  }

  private static UniformRandomProvider requireBits(UniformRandomProvider bits) {
    return Objects.requireNonNull(bits, "bits");
  }
}
