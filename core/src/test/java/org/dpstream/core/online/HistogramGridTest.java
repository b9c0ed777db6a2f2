package org.dpstream.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Scale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

/**
 * The shared grid is the per-block computation it replaces, to the bit: the edges, the log-widths, the candidates,
 * and so the threshold a block chooses.
 */
class HistogramGridTest {

  private static final int BINS = NormQuantileHistogram.BINS;
  private static final int POINTS = BalancedClipThreshold.POINTS_PER_BIN;

  private static double edge(double initialThreshold, int bin) {
    return initialThreshold * StrictMath.pow(2, -(double) bin / NormQuantileHistogram.BINS_PER_OCTAVE);
  }

  @Property(tries = 200, seed = "4101")
  void theGridIsTheExpressionsItMemoises(@ForAll @DoubleRange(min = 1e-6, max = 1e6) @Scale(12) double initialThreshold) {
    HistogramGrid grid = HistogramGrid.of(initialThreshold);
    for (int j = 0; j < BINS; j++) {
      assertEquals(Double.doubleToLongBits(edge(initialThreshold, j)), Double.doubleToLongBits(grid.edge(j)), "edge " + j);
    }
    assertEquals(0.0, grid.logWidth(BINS - 1), 0);
    for (int j = 0; j < BINS - 1; j++) {
      double upper = edge(initialThreshold, j);
      double lower = edge(initialThreshold, j + 1);
      assertEquals(Double.doubleToLongBits(StrictMath.log(upper / lower)), Double.doubleToLongBits(grid.logWidth(j)),
          "log-width " + j);
      for (int point = 0; point < POINTS; point++) {
        double candidate = upper * StrictMath.pow(lower / upper, (double) point / POINTS);
        assertEquals(Double.doubleToLongBits(candidate), Double.doubleToLongBits(grid.candidate(j, point)),
            "candidate " + point + " of bin " + j);
      }
    }
  }

  /**
   * For any pooled histogram and weights, the threshold chosen on the shared grid is the one the same search chooses
   * with every edge and candidate computed afresh (written out below), bit for bit.
   */
  @Property(tries = 300, seed = "4102")
  void theThresholdIsTheOneComputedAfresh(@ForAll @IntRange(min = 1, max = 2000) int norms,
      @ForAll @DoubleRange(min = 0.01, max = 100) @Scale(12) double initialThreshold, @ForAll long seed,
      @ForAll @DoubleRange(min = 0, max = 30) double binSigma,
      @ForAll @DoubleRange(min = 1e-6, max = 1e6) @Scale(12) double bias,
      @ForAll @DoubleRange(min = 1e-6, max = 1e6) @Scale(12) double noise) {
    UniformRandomProvider random = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    NormQuantileHistogram histogram = NormQuantileHistogram.start(initialThreshold, 0.5, binSigma);
    for (int i = 0; i < norms; i++) {
      histogram.record(initialThreshold * StrictMath.pow(2, -12 * random.nextDouble()));
    }
    histogram.releaseBlock(random);
    BalancedClipThreshold.ErrorWeights weights = new BalancedClipThreshold.ErrorWeights(bias, noise);
    double chosen = BalancedClipThreshold.threshold(histogram, 1, binSigma, weights);
    double afresh = thresholdComputedAfresh(histogram, initialThreshold, binSigma, weights);
    assertEquals(Double.doubleToLongBits(afresh), Double.doubleToLongBits(chosen), chosen + " vs " + afresh);
  }

  @Test
  void oneGridPerFirstThreshold() {
    assertSame(HistogramGrid.of(2.5), HistogramGrid.of(2.5));
    assertNotSame(HistogramGrid.of(2.5), HistogramGrid.of(Math.nextUp(2.5)));
    HistogramGrid before = HistogramGrid.of(3);
    HistogramGrid.clearForTests();
    assertNotSame(before, HistogramGrid.of(3));
  }

  /** The balanced threshold's search with the edges and candidates computed in place, as each block once did. */
  private static double thresholdComputedAfresh(NormQuantileHistogram histogram, double initialThreshold,
      double binSigma, BalancedClipThreshold.ErrorWeights weights) {
    double[] counts = histogram.pooled();
    long samples = histogram.pooledSamples();
    double cutoff = BalancedClipThreshold.SIGNIFICANCE * binSigma;
    int largest = 0;
    for (int j = 1; j < BINS; j++) {
      if (counts[j] > counts[largest]) {
        largest = j;
      }
    }
    if (samples == 0 || !(counts[largest] >= cutoff) || !(counts[largest] > 0)) {
      return histogram.quantileThreshold(0.5);
    }
    int top = largest;
    while (top > 0 && counts[top - 1] >= cutoff && counts[top - 1] > 0) {
      top--;
    }
    int bottom = largest;
    while (bottom < BINS - 1 && counts[bottom + 1] >= cutoff && counts[bottom + 1] > 0) {
      bottom++;
    }
    double best = Double.NaN;
    double bestError = Double.POSITIVE_INFINITY;
    for (int j = 0; j < BINS - 1; j++) {
      double upper = edge(initialThreshold, j);
      double lower = edge(initialThreshold, j + 1);
      for (int point = 0; point < POINTS; point++) {
        double c = upper * StrictMath.pow(lower / upper, (double) point / POINTS);
        double sum = 0;
        for (int k = top; k <= bottom; k++) {
          double binUpper = edge(initialThreshold, k);
          if (binUpper <= c) {
            break;
          }
          double binLower = k == BINS - 1 ? binUpper : edge(initialThreshold, k + 1);
          double logWidth = k == BINS - 1 ? 0 : StrictMath.log(binUpper / binLower);
          double excess;
          if (binLower >= binUpper) {
            excess = binUpper - c;
          } else {
            double from = Math.max(binLower, c);
            double logAbove = from == binLower ? logWidth : StrictMath.log(binUpper / from);
            excess = ((binUpper - from) - c * logAbove) / logWidth;
          }
          sum += counts[k] * excess;
        }
        double meanExcess = sum / samples;
        double error = weights.bias() * meanExcess * meanExcess + weights.noisePerSquaredThreshold() * c * c;
        if (error < bestError) {
          bestError = error;
          best = c;
        }
      }
    }
    return best;
  }
}
