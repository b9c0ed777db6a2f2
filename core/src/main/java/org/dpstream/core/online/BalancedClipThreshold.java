package org.dpstream.core.online;

/**
 * The threshold of an adaptive-clipping block that minimises the predicted error of the released sum: the squared
 * bias of clipping plus the noise that the block's threshold calls for (docs/online-estimators.md, "The clipping
 * threshold"). A function of the released (noisy) histogram of the norms and of public numbers only, so choosing
 * it is post-processing.
 *
 * <p>For a block of L increments clipped at C: the bias of one increment is g - clip_C(g), of norm (||g|| - C)_+,
 * whose mean is beta(C) = E (||g|| - C)_+; the block's noise is C times the epoch mechanism's noise over the block,
 * of variance d C^2 v(L). The block's total stays in every later release, and its error is bounded by
 *
 * <pre>
 *   J(C) = L^2 beta(C)^2 + d v(L) C^2         (the biases of a block add at most coherently)
 * </pre>
 *
 * J is minimised over [the histogram's lowest edge, C_0] on a grid of {@value #POINTS_PER_BIN} points per bin.
 *
 * <p>beta is estimated from the pooled noisy histogram (counts h_j of K released blocks, each bin with noise of
 * standard deviation sigma_h, so sigma_K = sigma_h sqrt(K)). Bins whose count is indistinguishable from noise are
 * dropped: kept is the contiguous run of bins around the largest one whose counts all reach z sigma_K. A lone noisy
 * bin far above the data would otherwise claim a tail the data do not have (an empty bin passes z = 2 with
 * probability 2.3 %, and only next to the run can it matter); a norm isolated above an empty half-octave is
 * clipped, also without noise. Within a bin the norms are taken log-uniform, as the quantile's interpolation does.
 * When not even the largest bin reaches z sigma_K, the histogram says nothing about the tail and the threshold is
 * the pooled median (the quantile rule at q = 1/2).
 *
 * <p>As epsilon grows, v shrinks with the noise variance (v is proportional to 1 / rho) and sigma_h with it, so
 * every bin of the run is kept and the minimiser rises to the top of its highest bin: nothing is clipped but norms
 * isolated above an empty half-octave, and the estimator becomes the unclipped one.
 */
final class BalancedClipThreshold {

  /** Grid points per bin at which J is evaluated (a relative step of 2^(1/32), 2 % of C). */
  static final int POINTS_PER_BIN = 16;

  /**
   * z, the significance of a kept bin in standard deviations of its pooled noise: chosen (against 3) by the
   * selection of docs/design/clipping-threshold-protocol.md, on settings outside the reported results.
   */
  static final double SIGNIFICANCE = 2;

  /**
   * The public weights of one block in J(C) = a beta(C)^2 + b C^2.
   *
   * @param bias a = L^2: the block's L biases add at most coherently in its total
   * @param noisePerSquaredThreshold b = d v(L): the variance of the block's noise in its total per unit C^2
   */
  record ErrorWeights(double bias, double noisePerSquaredThreshold) {}

  private BalancedClipThreshold() {}

  /**
   * The threshold minimising J, or the pooled median when no bin is significant.
   *
   * @param histogram the pooled noisy histogram (its bins' geometry and counts)
   * @param releases K, the number of block histograms pooled (at least 1)
   * @param binSigma sigma_h, the noise of one bin of one release (0: no noise)
   * @param weights the block's public weights
   */
  static double threshold(NormQuantileHistogram histogram, long releases, double binSigma, ErrorWeights weights) {
    double[] counts = histogram.pooled();
    long samples = histogram.pooledSamples();
    int bins = counts.length;
    double cutoff = SIGNIFICANCE * binSigma * Math.sqrt(releases);
    int largest = 0;
    for (int j = 1; j < bins; j++) {
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
    while (bottom < bins - 1 && counts[bottom + 1] >= cutoff && counts[bottom + 1] > 0) {
      bottom++;
    }
    HistogramGrid grid = histogram.grid();
    double best = Double.NaN;
    double bestError = Double.POSITIVE_INFINITY;
    // From the highest C down; a tie keeps the higher threshold (less bias for the same predicted error).
    for (int j = 0; j < bins - 1; j++) {
      for (int point = 0; point < POINTS_PER_BIN; point++) {
        double c = grid.candidate(j, point);
        double excess = meanExcess(grid, counts, top, bottom, samples, c);
        double error = weights.bias() * excess * excess + weights.noisePerSquaredThreshold() * c * c;
        if (error < bestError) {
          bestError = error;
          best = c;
        }
      }
    }
    return best;
  }

  /** beta(C): (1 / N) sum over the kept bins of h_j E[(u - C)_+], u log-uniform on the bin. */
  static double meanExcess(NormQuantileHistogram histogram, double[] counts, int top, int bottom, long samples,
      double c) {
    return meanExcess(histogram.grid(), counts, top, bottom, samples, c);
  }

  private static double meanExcess(HistogramGrid grid, double[] counts, int top, int bottom, long samples, double c) {
    double sum = 0;
    for (int j = top; j <= bottom; j++) {
      double upper = grid.edge(j);
      if (upper <= c) {
        break; // bins below hold no norm above C
      }
      double lower = j == counts.length - 1 ? upper : grid.edge(j + 1);
      sum += counts[j] * logUniformExcess(lower, upper, c, grid.logWidth(j));
    }
    return sum / samples;
  }

  /** E[(u - C)_+] for u log-uniform on [a, b] (a point mass at b when a = b). */
  static double logUniformExcess(double a, double b, double c) {
    return logUniformExcess(a, b, c, a < b ? StrictMath.log(b / a) : 0);
  }

  /** As {@link #logUniformExcess(double, double, double)} given log(b / a). */
  private static double logUniformExcess(double a, double b, double c, double logWidth) {
    if (c >= b) {
      return 0;
    }
    if (a >= b) {
      return b - c;
    }
    double from = Math.max(a, c);
    double logAbove = from == a ? logWidth : StrictMath.log(b / from);
    return ((b - from) - c * logAbove) / logWidth;
  }
}
