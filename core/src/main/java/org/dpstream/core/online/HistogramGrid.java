package org.dpstream.core.online;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * The public geometry of a {@link NormQuantileHistogram} of first threshold C_0: its bins' upper edges, their
 * log-widths, and the grid of candidate thresholds {@link BalancedClipThreshold} evaluates. All of it is a function of
 * C_0 alone, and every value is the double the expressions below give, so a block's threshold is bit for bit what it
 * would be if computed afresh.
 *
 * <p>Why shared: computing it is {@value NormQuantileHistogram#BINS} + 16 x 32 calls of {@code StrictMath.pow} for
 * every block of every model, most of a block's threshold; the models of one service have few distinct C_0 (one per
 * clipping configuration). Memoised by C_0's bits in a small bounded cache.
 */
final class HistogramGrid {

  private static final int CAPACITY = 64;
  // Evictions run on the calling thread: no background task.
  private static final Cache<Long, HistogramGrid> GRIDS =
      Caffeine.newBuilder().maximumSize(CAPACITY).executor(Runnable::run).build();

  private final double[] edges;
  private final double[] logWidths;
  private final double[] candidates;

  private HistogramGrid(double initialThreshold) {
    int bins = NormQuantileHistogram.BINS;
    int points = BalancedClipThreshold.POINTS_PER_BIN;
    edges = new double[bins];
    for (int j = 0; j < bins; j++) {
      edges[j] = initialThreshold * StrictMath.pow(2, -(double) j / NormQuantileHistogram.BINS_PER_OCTAVE);
    }
    logWidths = new double[bins];
    candidates = new double[(bins - 1) * points];
    for (int j = 0; j < bins - 1; j++) {
      double upper = edges[j];
      double lower = edges[j + 1];
      logWidths[j] = StrictMath.log(upper / lower);
      for (int point = 0; point < points; point++) {
        candidates[j * points + point] = upper * StrictMath.pow(lower / upper, (double) point / points);
      }
    }
  }

  /** The grid of a histogram whose first threshold is {@code initialThreshold}. */
  static HistogramGrid of(double initialThreshold) {
    return GRIDS.get(Double.doubleToLongBits(initialThreshold), bits -> new HistogramGrid(initialThreshold));
  }

  /** The upper edge of bin j, C_0 2^-j/2. */
  double edge(int bin) {
    return edges[bin];
  }

  /** log(edge(j) / edge(j + 1)) for j below the last bin; 0 for the last. */
  double logWidth(int bin) {
    return logWidths[bin];
  }

  /** The {@code point}-th of the grid's points in bin j, from its upper edge down: edge(j) (edge(j+1)/edge(j))^(point/P). */
  double candidate(int bin, int point) {
    return candidates[bin * BalancedClipThreshold.POINTS_PER_BIN + point];
  }

  /**
   * Empties the cache; only tests call it. Mutation testing hot-swaps one mutant after another into one JVM, and a
   * grid built under an earlier mutant would answer for the code under test: tests start from an empty cache.
   */
  static void clearForTests() {
    GRIDS.invalidateAll();
  }
}
