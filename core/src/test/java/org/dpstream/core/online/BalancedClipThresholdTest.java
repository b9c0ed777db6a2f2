package org.dpstream.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

/** The balanced threshold: its excess formulas, its limits, its denoising and its optimality on the grid. */
class BalancedClipThresholdTest {

  private static final double C0 = 8;
  private static final UniformRandomProvider BITS = RandomSource.XO_RO_SHI_RO_128_PP.create(1);

  /** A noise-free pooled histogram of the given norms, each {@code copies} times. */
  private static NormQuantileHistogram histogram(int copies, double... norms) {
    NormQuantileHistogram histogram = NormQuantileHistogram.start(C0, Double.NaN, 0);
    for (double norm : norms) {
      for (int k = 0; k < copies; k++) {
        histogram.record(norm);
      }
    }
    histogram.releaseBlock(BITS);
    return histogram;
  }

  /** E[(u - C)_+] for u log-uniform on [a, b] against a midpoint rule on 10^6 points in log u. */
  @Test
  void logUniformExcessesMatchNumericalIntegration() {
    double a = 0.5;
    double b = 0.5 * Math.sqrt(2);
    for (double c : new double[] {0.1, 0.5, 0.6, 0.7, 0.71, 1}) {
      int points = 1_000_000;
      double first = 0;
      for (int i = 0; i < points; i++) {
        double u = a * Math.pow(b / a, (i + 0.5) / points);
        first += Math.max(0, u - c) / points;
      }
      assertEquals(first, BalancedClipThreshold.logUniformExcess(a, b, c), 1e-9, "c=" + c);
    }
    assertEquals(0.25, BalancedClipThreshold.logUniformExcess(1, 1, 0.75), 1e-15, "a point mass");
  }

  /**
   * Without noise weight (eps to infinity) nothing may be clipped: the threshold is the top of the highest non-empty
   * bin. Norms 0.3 (bin of (C0 2^-5, C0 2^-4.5]) and 1.1 (bin (C0 2^-3, C0 2^-2.5] = (1, 1.41]): 1.41.
   */
  @Test
  void withoutNoiseNothingIsClipped() {
    NormQuantileHistogram histogram = histogram(100, 0.3, 1.1);
    double c = BalancedClipThreshold.threshold(histogram, 1, 0, new BalancedClipThreshold.ErrorWeights(1e6, 1e-30));
    assertEquals(C0 * Math.pow(2, -2.5), c, 1e-12);
    assertTrue(c >= 1.1);
  }

  /** More noise weight never raises the threshold, and a large one brings it into the bulk of the norms. */
  @Test
  void theThresholdFallsAsTheNoiseWeightRises() {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(3);
    double[] norms = new double[2000];
    for (int i = 0; i < norms.length; i++) {
      norms[i] = Math.exp(rng.nextDouble() * 3 - 2); // 0.14 to 2.7, log-uniform
    }
    NormQuantileHistogram histogram = histogram(1, norms);
    double previous = Double.POSITIVE_INFINITY;
    for (double b : new double[] {1e-12, 1e-6, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10}) {
      double c = BalancedClipThreshold.threshold(histogram, 1, 0, new BalancedClipThreshold.ErrorWeights(1, b));
      assertTrue(c <= previous, "b=" + b + ": " + c + " after " + previous);
      previous = c;
    }
    assertTrue(previous < 0.3, "a large noise weight clips most norms: " + previous);
  }

  /**
   * The grid's minimum is within 2^(1/32) (2.2 %) of the minimum of J on a dense search (10^5 points) of [C0 2^-16,
   * C0], and J there within 0.1 %.
   */
  @Test
  void theGridFindsTheMinimumOfTheError() {
    NormQuantileHistogram histogram = histogram(50, 0.2, 0.35, 0.5, 0.7, 0.9, 1.3, 2.1);
    BalancedClipThreshold.ErrorWeights weights = new BalancedClipThreshold.ErrorWeights(100, 0.3);
    double chosen = BalancedClipThreshold.threshold(histogram, 1, 0, weights);
    double[] counts = histogram.pooled();
    double best = Double.NaN;
    double bestError = Double.POSITIVE_INFINITY;
    for (int i = 0; i <= 100_000; i++) {
      double c = C0 * Math.pow(2, -16.0 * i / 100_000);
      double error = error(histogram, counts, weights, c);
      if (error < bestError) {
        bestError = error;
        best = c;
      }
    }
    assertEquals(1, chosen / best, Math.pow(2, 1.0 / 32) - 1, chosen + " vs " + best);
    assertEquals(1, error(histogram, counts, weights, chosen) / bestError, 1e-3);
  }

  private static double error(NormQuantileHistogram histogram, double[] counts,
      BalancedClipThreshold.ErrorWeights weights, double c) {
    double excess = BalancedClipThreshold.meanExcess(histogram, counts, 0, counts.length - 1,
        histogram.pooledSamples(), c);
    return weights.bias() * excess * excess + weights.noisePerSquaredThreshold() * c * c;
  }

  /**
   * A noisy bin separated from the norms by bins below z sigma_K is not a tail: with bin noise sigma_h = 10 (K = 1,
   * z = 2: a cutoff of 20) and a lone bin of 100 at C0 / 2 (10 sigma) above empty bins, the threshold stays where the
   * norms are.
   */
  @Test
  void aLoneNoisyBinDoesNotMakeATail() {
    NormQuantileHistogram withoutPhantom = histogram(1000, 0.5, 0.6);
    NormQuantileHistogram withPhantom = NormQuantileHistogram.start(C0, Double.NaN, 0);
    for (int k = 0; k < 1000; k++) {
      withPhantom.record(0.5);
      withPhantom.record(0.6);
    }
    for (int k = 0; k < 100; k++) {
      withPhantom.record(C0 / 2);
    }
    withPhantom.releaseBlock(BITS);
    BalancedClipThreshold.ErrorWeights tiny = new BalancedClipThreshold.ErrorWeights(1e6, 1e-12);
    double expected = BalancedClipThreshold.threshold(withoutPhantom, 1, 10, tiny);
    assertEquals(expected, BalancedClipThreshold.threshold(withPhantom, 1, 10, tiny), 0);
    assertTrue(expected < 1, "" + expected);
    // Joined to the norms by non-empty bins, the same counts are a tail, and with a tiny noise weight not clipped.
    NormQuantileHistogram joined = NormQuantileHistogram.start(C0, Double.NaN, 0);
    for (double norm = 0.5; norm < C0 / 2; norm *= Math.sqrt(2)) {
      for (int k = 0; k < 100; k++) {
        joined.record(norm);
      }
    }
    joined.releaseBlock(BITS);
    assertTrue(BalancedClipThreshold.threshold(joined, 1, 10, tiny) >= C0 / 2 / Math.sqrt(2));
  }

  /**
   * When no bin reaches z sigma_K the histogram says nothing about the tail: the pooled median. Counts of 10 against
   * sigma_h = 3 over K = 4 releases: a cutoff of 2 x 3 x 2 = 12.
   */
  @Test
  void withoutASignificantBinTheThresholdIsTheMedian() {
    NormQuantileHistogram histogram = histogram(10, 0.5, 1, 2);
    BalancedClipThreshold.ErrorWeights weights = new BalancedClipThreshold.ErrorWeights(1, 1);
    assertEquals(histogram.quantileThreshold(0.5), BalancedClipThreshold.threshold(histogram, 4, 3, weights), 0);
    assertTrue(histogram.quantileThreshold(0.5) != BalancedClipThreshold.threshold(histogram, 4, 2, weights),
        "at sigma_h = 2 (cutoff 8) the bins are kept and J decides");
  }

  /**
   * The weights of a block: a = L^2 and b = d v(L), v the epoch mechanism's noise over the block at unit threshold.
   * The 9,744 leaves of the first epoch at n = 10^4 (the warm-up is 256), block 5 = steps 513 to 768 of the epoch,
   * the mechanism's 257th to 512th leaves.
   */
  @Test
  void theWeightsAreTheBlocksLengthSquaredAndItsNoise() {
    OnlineTestData data = new OnlineTestData(5, 1.5, 2, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(1));
    OnlineModelSpec spec = data.spec("weights", 1.5, 2, 1, 10_000, AccountantChoice.AUTO)
        .withIncrementClipping(IncrementClipping.ADAPTIVE).withNoise(NoiseChoice.DISCRETE);
    AdaptiveClipPlan plan = AdaptiveClipPlan.of(spec);
    BalancedClipThreshold.ErrorWeights weights = plan.errorWeights(0, 5);
    assertEquals(256.0 * 256, weights.bias());
    ExactBltPlan mechanism = (ExactBltPlan) plan.epoch(0).plan();
    assertEquals(5 * mechanism.incrementNoiseVariance(256, 512), weights.noisePerSquaredThreshold(), 0);
    // Later epochs have no warm-up: the same block is the mechanism's 513th to 768th leaves.
    assertEquals(5 * ((ExactBltPlan) plan.epoch(1).plan()).incrementNoiseVariance(512, 768),
        plan.errorWeights(1, 5).noisePerSquaredThreshold(), 0);
  }

  /** Norms recorded {@code copies} times each, as one noise-free block. */
  private static NormQuantileHistogram counted(int[] copies, double[] norms) {
    NormQuantileHistogram histogram = NormQuantileHistogram.start(C0, Double.NaN, 0);
    for (int i = 0; i < norms.length; i++) {
      for (int k = 0; k < copies[i]; k++) {
        histogram.record(norms[i]);
      }
    }
    histogram.releaseBlock(BITS);
    return histogram;
  }

  /**
   * A bin whose count equals the cutoff z sigma_h sqrt(K) is significant, whether above the largest bin, below it or
   * the largest itself: with sigma_h = 10 (K = 1, a cutoff of exactly 20) the threshold is the one of sigma_h = 0,
   * which keeps every non-empty bin, and not the one without the bin of 20. Bins of the norms: 0.4 in (0.35, 0.5],
   * 0.6 in (0.5, 0.71], 0.8 in (0.71, 1].
   */
  @Test
  void aBinAtTheCutoffIsSignificant() {
    BalancedClipThreshold.ErrorWeights tiny = new BalancedClipThreshold.ErrorWeights(1e6, 1e-12);
    NormQuantileHistogram above = counted(new int[] {100, 20}, new double[] {0.6, 0.8});
    assertEquals(1, BalancedClipThreshold.threshold(above, 1, 10, tiny), 1e-12, "the bin of 20 above is a tail");
    assertEquals(1, BalancedClipThreshold.threshold(above, 1, 0, tiny), 1e-12);
    assertEquals(Math.sqrt(0.5), BalancedClipThreshold.threshold(above, 1, 10.001, tiny), 1e-12,
        "just below the cutoff it is noise");

    // Below the largest bin, the bin of 20 counts where the noise weight pulls the threshold into the norms.
    BalancedClipThreshold.ErrorWeights heavy = new BalancedClipThreshold.ErrorWeights(1, 1);
    NormQuantileHistogram below = counted(new int[] {100, 20}, new double[] {0.6, 0.4});
    double kept = BalancedClipThreshold.threshold(below, 1, 0, heavy);
    assertEquals(kept, BalancedClipThreshold.threshold(below, 1, 10, heavy), 0);
    assertTrue(kept != BalancedClipThreshold.threshold(below, 1, 10.001, heavy), "the bin of 20 below moves it");

    // The largest bin itself at the cutoff: J decides (the top of the highest bin), not the pooled median.
    NormQuantileHistogram level = counted(new int[] {20, 20}, new double[] {0.6, 0.8});
    assertEquals(1, BalancedClipThreshold.threshold(level, 1, 10, tiny), 1e-12);
    assertEquals(level.quantileThreshold(0.5), BalancedClipThreshold.threshold(level, 1, 10.001, tiny), 0);
    assertTrue(level.quantileThreshold(0.5) < 1);
  }

  /** Without noise weight every threshold above the norms ties at J = 0, and a tie keeps the highest: C0 itself. */
  @Test
  void aTieKeepsTheHigherThreshold() {
    NormQuantileHistogram histogram = histogram(100, 0.3, 1.1);
    assertEquals(C0, BalancedClipThreshold.threshold(histogram, 1, 0, new BalancedClipThreshold.ErrorWeights(1, 0)),
        1e-12);
  }

  /**
   * With only noise weight the lowest candidate wins: the grid's lowest point, 15/16 of the way down the lowest
   * half-octave above C0 2^-16 (16 points per bin), not that edge itself (the bin below it is not a bin of thresholds).
   */
  @Test
  void theLowestCandidateIsTheGridsLowestPoint() {
    NormQuantileHistogram histogram = histogram(100, 0.3, 1.1);
    double lowest = C0 * Math.pow(2, -15.5) * Math.pow(2, -0.5 * 15 / 16);
    assertEquals(lowest, BalancedClipThreshold.threshold(histogram, 1, 0, new BalancedClipThreshold.ErrorWeights(0, 1)),
        1e-12 * lowest);
  }

  /** The last bin (norms below C0 2^-16) is a point mass at its upper edge: its excess over C is that edge minus C. */
  @Test
  void theLowestBinIsAPointMassAtItsEdge() {
    NormQuantileHistogram histogram = histogram(10, 1e-6);
    double[] counts = histogram.pooled();
    int last = counts.length - 1;
    double edge = C0 * Math.pow(2, -NormQuantileHistogram.OCTAVES);
    assertEquals(10, counts[last], 0);
    assertEquals(edge, BalancedClipThreshold.meanExcess(histogram, counts, 0, last, 10, 0), 1e-18);
    assertEquals(edge / 4, BalancedClipThreshold.meanExcess(histogram, counts, 0, last, 10, 0.75 * edge), 1e-18);
  }
}
