package org.dpstream.core.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import java.util.function.LongSupplier;
import java.util.function.LongToDoubleFunction;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.apache.commons.statistics.inference.ChiSquareTest;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;

/**
 * Chi-square of integer draws against an exact, symmetric pmf: one bin per integer of the bulk
 * (|x| &lt; B, every bin expecting at least 10 draws) and the two tails x &lt;= -B and x &gt;= B as
 * bins of their own, so that the tail mass is tested too.
 */
final class IntegerGoodnessOfFit {

  private IntegerGoodnessOfFit() {}

  /** The keyed source of the tests: one coordinate's long bit sequence under a test key. */
  static RandomBits keyedBits(long seed) {
    return RandomBits.of(new KeyedNoiseSource(TestKeys.seeded(seed)).forStream("test", "discrete-samplers").at(0, 0));
  }

  /** Unnormalised weights w(x) = exp(-f(x)), normalised over |x| &lt;= reach (the rest is below 1e-300). */
  static double[] pmfOverRange(LongToDoubleFunction negativeLogWeight, int reach) {
    double[] pmf = new double[2 * reach + 1];
    double total = 0;
    for (int x = -reach; x <= reach; x++) {
      pmf[x + reach] = Math.exp(-negativeLogWeight.applyAsDouble(x));
      total += pmf[x + reach];
    }
    for (int i = 0; i < pmf.length; i++) {
      pmf[i] /= total;
    }
    return pmf;
  }

  /**
   * Fails if the chi-square p-value of {@code n} draws is below {@code alpha}; returns the number of
   * bins. B is the largest bound with every bulk bin expecting at least 5 draws and each tail at least 10.
   */
  static int assertFits(LongSupplier draws, double[] pmf, int n, double alpha, String what) {
    int reach = (pmf.length - 1) / 2;
    int bulk = 1;
    while (bulk < reach && n * pmf[reach + bulk] >= 5 && n * upperTail(pmf, bulk + 1) >= 10) {
      bulk++;
    }
    int bins = 2 * bulk + 1; // x <= -B, then -B < x < B one by one, then x >= B
    double[] expected = new double[bins];
    long[] observed = new long[bins];
    for (int x = -reach; x <= reach; x++) {
      expected[bin(x, bulk)] += pmf[x + reach] * n;
    }
    for (int i = 0; i < n; i++) {
      observed[bin(draws.getAsLong(), bulk)]++;
    }
    double pValue = ChiSquareTest.withDefaults().test(expected, observed).getPValue();
    assertTrue(pValue >= alpha, () -> what + ": chi-square p-value " + pValue + " < " + alpha + " over " + bins + " bins");
    return bins;
  }

  private static double upperTail(double[] pmf, int from) {
    int reach = (pmf.length - 1) / 2;
    double tail = 0;
    for (int x = from; x <= reach; x++) {
      tail += pmf[x + reach];
    }
    return tail;
  }

  private static int bin(long x, int bulk) {
    return (int) (Math.max(-bulk, Math.min(bulk, x)) + bulk);
  }

  /** 1000 draws from two reservoirs of the same keyed bits are equal. */
  static void assertReplays(ExactIntegerSampler sampler, long seed) {
    RandomBits first = keyedBits(seed);
    RandomBits again = keyedBits(seed);
    for (int i = 0; i < 1000; i++) {
      assertEquals(sampler.sample(first), sampler.sample(again));
    }
  }

  /**
   * Fails if {@code n} draws are not uniform over 20 equiprobable bins of N(0, sigma^2) at alpha = 1e-4 (for a
   * large sigma the discrete Gaussian is that normal to within exp(-2 pi^2 sigma^2) in total variation).
   */
  static void assertFitsNormalBins(ExactIntegerSampler sampler, double sigma, RandomBits bits, int n) {
    NormalDistribution normal = NormalDistribution.of(0, sigma);
    int bins = 20;
    long[] observed = new long[bins];
    for (int i = 0; i < n; i++) {
      double u = normal.cumulativeProbability(sampler.sample(bits));
      observed[Math.min(bins - 1, (int) (u * bins))]++;
    }
    double[] expected = new double[bins];
    Arrays.fill(expected, 1.0);
    double pValue = ChiSquareTest.withDefaults().test(expected, observed).getPValue();
    assertTrue(pValue >= 1e-4, "p-value " + pValue);
  }

  /** E[X^2] and E[X^4] of a pmf over [-reach, reach] (its variance and fourth moment when it is symmetric). */
  static double[] secondAndFourthMoments(double[] pmf) {
    int reach = (pmf.length - 1) / 2;
    double second = 0;
    double fourth = 0;
    for (int x = -reach; x <= reach; x++) {
      second += pmf[x + reach] * x * x;
      fourth += pmf[x + reach] * x * x * (double) x * x;
    }
    return new double[] {second, fourth};
  }
}
