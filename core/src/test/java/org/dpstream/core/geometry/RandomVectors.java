package org.dpstream.core.geometry;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;

/** Seeded random vectors and naive reference computations for geometry and loss tests. */
public final class RandomVectors {

  private final UniformRandomProvider bits;
  private final ZigguratSampler.NormalizedGaussian gaussian;

  private RandomVectors(UniformRandomProvider bits) {
    this.bits = bits;
    this.gaussian = ZigguratSampler.NormalizedGaussian.of(bits);
  }

  /** A fixed-seed, non-cryptographic source: tests only. */
  public static RandomVectors seeded(long seed) {
    return new RandomVectors(RandomSource.XO_RO_SHI_RO_128_PP.create(seed));
  }

  public double uniform() {
    return bits.nextDouble();
  }

  public int index(int bound) {
    return bits.nextInt(bound);
  }

  /** iid N(0, 1) entries. */
  public double[] gaussian(int dimension) {
    double[] v = new double[dimension];
    for (int i = 0; i < dimension; i++) {
      v[i] = gaussian.sample();
    }
    return v;
  }

  /**
   * A point with ||v|| = radius: a Gaussian direction, with probability 1/4 made sparse (a random
   * subset of coordinates zeroed) or, with probability 1/4, a random sign vector, so that the
   * faces and vertices of the l_1 and l_inf balls are visited too.
   */
  public double[] onSphere(LpNorm norm, int dimension, double radius) {
    double[] v = gaussian(dimension);
    double shape = bits.nextDouble();
    if (shape < 0.25) {
      int kept = bits.nextInt(dimension);
      for (int i = 0; i < dimension; i++) {
        if (i != kept && bits.nextBoolean()) {
          v[i] = 0;
        }
      }
    } else if (shape < 0.5) {
      for (int i = 0; i < dimension; i++) {
        v[i] = bits.nextBoolean() ? 1 : -1;
      }
    }
    return scaleToNorm(v, norm, radius);
  }

  /** A point with ||v|| = radius * U, U uniform on [0, 1]. */
  public double[] inBall(LpNorm norm, int dimension, double radius) {
    return onSphere(norm, dimension, radius * bits.nextDouble());
  }

  /** v scaled in place to ||v|| = radius (up to rounding). */
  public static double[] scaleToNorm(double[] v, LpNorm norm, double radius) {
    double factor = radius / norm.valueOf(v);
    for (int i = 0; i < v.length; i++) {
      v[i] *= factor;
    }
    return v;
  }

  /** (sum |x_i|^p)^(1/p) or max |x_i|, without any scaling. */
  public static double naiveNorm(double[] x, double p) {
    if (p == Double.POSITIVE_INFINITY) {
      double max = 0;
      for (double value : x) {
        max = Math.max(max, Math.abs(value));
      }
      return max;
    }
    double sum = 0;
    for (double value : x) {
      sum += Math.pow(Math.abs(value), p);
    }
    return Math.pow(sum, 1 / p);
  }

  public static double dot(double[] a, double[] b) {
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      sum += a[i] * b[i];
    }
    return sum;
  }

  public static double[] difference(double[] a, double[] b) {
    double[] out = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      out[i] = a[i] - b[i];
    }
    return out;
  }

  public static double[] scaled(double[] v, double factor) {
    double[] out = new double[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = v[i] * factor;
    }
    return out;
  }
}
