package org.dpstream.core.privacy.noise;

import static org.dpstream.core.privacy.noise.NoiseArguments.requireLength;
import static org.dpstream.core.privacy.noise.NoiseArguments.requirePositiveDimension;
import static org.dpstream.core.privacy.noise.NoiseArguments.requirePositiveFinite;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Noise with d independent, identically distributed coordinates of one scalar law: the one iid vector noise
 * of the project (it replaced a class per law).
 *
 * <ul>
 *   <li>{@link #gaussian}: N(0, sigma^2) per coordinate (Commons RNG Ziggurat), isotropic N(0, sigma^2 I_d);
 *   <li>{@link #laplace}: Laplace(0, b), density proportional to exp(-||z||_1 / b), for l1 sensitivity;
 *   <li>{@link #gumbel}: Gumbel(0, b) (CDF exp(-exp(-x / b))), drawn as -b ln(E), E ~ Exp(1) (Commons RNG has
 *       no Gumbel sampler); added to utilities, its argmax samples the exponential mechanism (Gumbel-max).
 * </ul>
 *
 * Floating-point samplers: the tree rounds its noise to a lattice (post-processing), DP-POFW releases only an
 * argmax. A draw reads the bits passed in and nothing else, so noise is a function of the keyed source's
 * coordinates. The one iid vector noise of the project: the tree, the factorizations, the batch algorithms,
 * DP-DDA and DP-POFW all draw through it.
 */
public final class IidVectorNoise implements VectorNoise {

  /** The scalar law of every coordinate. */
  public enum Law {
    GAUSSIAN("sigma"),
    LAPLACE("scale"),
    GUMBEL("scale");

    private final String parameter;

    Law(String parameter) {
      this.parameter = parameter;
    }
  }

  private final Law law;
  private final int dimension;
  private final double scale;

  private IidVectorNoise(Law law, int dimension, double scale) {
    this.law = Objects.requireNonNull(law, "law");
    this.dimension = requirePositiveDimension(dimension);
    this.scale = requirePositiveFinite(scale, law.parameter);
  }

  /** d iid N(0, sigma^2) coordinates. */
  public static IidVectorNoise gaussian(int dimension, double sigma) {
    return new IidVectorNoise(Law.GAUSSIAN, dimension, sigma);
  }

  /** d iid Laplace(0, scale) coordinates (standard deviation scale sqrt 2). */
  public static IidVectorNoise laplace(int dimension, double scale) {
    return new IidVectorNoise(Law.LAPLACE, dimension, scale);
  }

  /** d iid Gumbel(0, scale) coordinates. */
  public static IidVectorNoise gumbel(int dimension, double scale) {
    return new IidVectorNoise(Law.GUMBEL, dimension, scale);
  }

  public Law law() {
    return law;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  /** sigma of the Gaussian, b of the Laplace or Gumbel law. */
  public double scale() {
    return scale;
  }

  @Override
  public void sample(UniformRandomProvider bits, double[] out) {
    requireLength(out, dimension);
    switch (law) {
      case GAUSSIAN -> fill(ScalarSamplers.gaussian(bits, scale), out);
      case LAPLACE -> fill(ScalarSamplers.laplace(bits, scale), out);
      case GUMBEL -> {
        ZigguratSampler.Exponential exponential = ZigguratSampler.Exponential.of(bits);
        for (int i = 0; i < dimension; i++) {
          out[i] = -scale * Math.log(exponential.sample());
        }
      }
    }
  }

  private static void fill(ContinuousSampler coordinate, double[] out) {
    Arrays.setAll(out, i -> coordinate.sample());
  }

  /** E.g. {@code laplace(d=5, scale=0.25)}. */
  @Override
  public String describe() {
    return law.name().toLowerCase(Locale.ROOT) + "(d=" + dimension + ", " + law.parameter + "=" + scale + ")";
  }

  @Override
  public String toString() {
    return describe();
  }
}
