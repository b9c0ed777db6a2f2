package org.dpstream.core.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.DoubleUnaryOperator;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.apache.commons.statistics.inference.KolmogorovSmirnovTest;

/** Seeded bit sources, goodness-of-fit assertions and the l_q norm for this package's tests. */
final class NoiseTestSupport {

  private NoiseTestSupport() {}

  /** A fixed-seed, non-cryptographic bit source: tests only. */
  static UniformRandomProvider seeded(long seed) {
    return RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
  }

  static double[] draw(ContinuousSampler sampler, int n) {
    double[] values = new double[n];
    for (int i = 0; i < n; i++) {
      values[i] = sampler.sample();
    }
    return values;
  }

  /** n vectors drawn in sequence from one bit source. */
  static double[][] draw(VectorNoise noise, UniformRandomProvider bits, int n) {
    double[][] vectors = new double[n][noise.dimension()];
    for (double[] vector : vectors) {
      noise.sample(bits, vector);
    }
    return vectors;
  }

  static double[] coordinate(double[][] vectors, int index) {
    double[] values = new double[vectors.length];
    for (int i = 0; i < vectors.length; i++) {
      values[i] = vectors[i][index];
    }
    return values;
  }

  /** One-sample Kolmogorov-Smirnov: fails if the p-value is below {@code alpha}. */
  static void assertFitsCdf(double[] sample, DoubleUnaryOperator cdf, double alpha, String what) {
    double pValue = KolmogorovSmirnovTest.withDefaults().test(sample, cdf).getPValue();
    assertTrue(pValue >= alpha, () -> what + ": KS p-value " + pValue + " < " + alpha);
  }

  /** ||v||_q = (sum |v_i|^q)^(1/q) for any q > 0, scaled by max |v_i| against over/underflow. */
  static double lqNorm(double[] v, double q) {
    double max = 0;
    for (double x : v) {
      max = Math.max(max, Math.abs(x));
    }
    if (max == 0) {
      return 0;
    }
    double sum = 0;
    for (double x : v) {
      sum += Math.pow(Math.abs(x) / max, q);
    }
    return max * Math.pow(sum, 1 / q);
  }
}
