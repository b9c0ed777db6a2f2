package org.dpstream.core.online;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpstream.core.privacy.noise.ConstantVectorNoise;
import org.dpstream.core.privacy.noise.DiscreteGaussian;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.noise.RandomBits;
import org.dpstream.core.privacy.noise.VectorNoise;

/**
 * The private estimate of a quantile of the increments' norms that adaptive clipping follows: a histogram of
 * log2 ||g_t|| per block, released with Gaussian noise, pooled over the released blocks. With {@code noise:
 * discrete} the noise of each bin is the exact discrete Gaussian N_Z(0, sigma_h^2) (sigma_h^2 the exact square
 * of the double sigma_h): counts plus integer noise, no floating-point noise.
 *
 * <p>Bins are public: half-octaves below the first threshold C_0, bin j holding norms in
 * (C_0 2^-(j+1)/2, C_0 2^-j/2] for j &lt; {@value #BINS} - 1 (bin 0 also everything above C_0, bin
 * {@value #BINS} - 1 everything at or below C_0 2^-{@value #OCTAVES}, zero included). Replacing one sample
 * moves one count between two bins: l2 sensitivity sqrt(2) ({@code AdaptiveClipBudget}).
 *
 * <p>The threshold: with H the pooled noisy histogram and N the number of samples in it (public: the
 * blocks' lengths), the smallest c with (estimated number of norms above c) &lt;= (1 - q) N, walking down from
 * the top bin and interpolating geometrically within the bin where the noisy cumulative count crosses
 * (1 - q) N. A function of released values only.
 *
 * <p>Why not the geometric update of Andrew et al. (C &lt;- C exp(-eta (b - q)) from one noisy count b of
 * unclipped increments per round): it moves ln C by at most eta max(q, 1 - q) per round, and an epoch has
 * about {@link ClipBlockSchedule#DOUBLINGS} + 2 blocks; from C_0 = 9.5 to the median 0.7 of the regression setting
 * (ln ratio 2.6) at their eta = 0.2 and q = 0.5 that is 26 rounds. The histogram is within a factor 3 of the
 * median after the warm-up and at it by the last blocks (docs/privacy-layer.md has the measurement).
 *
 * <p>Not thread-safe.
 */
final class NormQuantileHistogram {

  static final int OCTAVES = 16;
  static final int BINS_PER_OCTAVE = 2;
  static final int BINS = OCTAVES * BINS_PER_OCTAVE + 1;

  private final double initialThreshold;
  private final HistogramGrid grid;
  private final double quantile;
  /** The bins' noise for noise: continuous (zeros for the audit's noise-free control); null for discrete. */
  private final VectorNoise noise;
  /** The exact sampler of a bin's noise for noise: discrete, else null. */
  private final DiscreteGaussian exactNoise;
  private final long[] blockCounts = new long[BINS];
  private final double[] pooled;
  private long pooledSamples;
  private final double[] draw = new double[BINS];
  /**
   * The last released block's noisy histogram (counts plus that block's noise) and its number of samples (public:
   * the block's length). Not stored: it is what the block released, kept for the clipping-rate metric until the next
   * block's release; after a restore it is unknown until then.
   */
  private final double[] lastBlock = new double[BINS];
  private long lastBlockSamples;

  private NormQuantileHistogram(double initialThreshold, double quantile, double sigma, NoiseChoice sampling,
      double[] pooled, long pooledSamples) {
    this.initialThreshold = initialThreshold;
    this.grid = HistogramGrid.of(initialThreshold);
    this.quantile = quantile;
    // A sigma of 0 is the audit's negative control (quantile without noise, NOT PRIVATE): zeros, drawn like
    // noise so that releasing stays one code path; production sigma is > 0.
    boolean exact = sampling == NoiseChoice.DISCRETE && sigma > 0;
    this.exactNoise = exact ? DiscreteGaussian.ofSigma(sigma) : null;
    this.noise = exact ? null : sigma > 0 ? IidVectorNoise.gaussian(BINS, sigma) : ConstantVectorNoise.zero(BINS);
    this.pooled = pooled;
    this.pooledSamples = pooledSamples;
  }

  static NormQuantileHistogram start(double initialThreshold, double quantile, double sigma) {
    return start(initialThreshold, quantile, sigma, NoiseChoice.CONTINUOUS);
  }

  static NormQuantileHistogram start(double initialThreshold, double quantile, double sigma, NoiseChoice sampling) {
    return new NormQuantileHistogram(initialThreshold, quantile, sigma, sampling, new double[BINS], 0);
  }

  /** The public bin of a norm. */
  int binOf(double norm) {
    double lowestEdge = Math.scalb(initialThreshold, -OCTAVES);
    if (!(norm > lowestEdge)) {
      return BINS - 1;
    }
    double halfOctavesBelow = BINS_PER_OCTAVE * (StrictMath.log(initialThreshold / norm) / StrictMath.log(2));
    return (int) Math.max(0, Math.min(BINS - 2, Math.floor(halfOctavesBelow)));
  }

  /** The upper edge of bin j (j in [1, BINS)), C_0 2^-j/2; bin 0's is C_0. */
  double upperEdge(int bin) {
    return grid.edge(bin);
  }

  /** The bins' public geometry (edges, log-widths, the balanced threshold's candidates). */
  HistogramGrid grid() {
    return grid;
  }

  void record(double norm) {
    blockCounts[binOf(norm)]++;
  }

  /** Releases the block's histogram with noise from {@code bits}, pools it and starts the next block. */
  void releaseBlock(UniformRandomProvider bits) {
    if (exactNoise != null) {
      RandomBits exactBits = RandomBits.of(bits);
      for (int j = 0; j < BINS; j++) {
        draw[j] = exactNoise.sample(exactBits); // |noise| < 2^53 (sigma_h is about 22): an exact double
      }
    } else {
      noise.sample(bits, draw);
    }
    long samples = 0;
    for (int j = 0; j < BINS; j++) {
      lastBlock[j] = blockCounts[j] + draw[j];
      pooled[j] += lastBlock[j];
      samples += blockCounts[j];
    }
    pooledSamples += samples;
    lastBlockSamples = samples;
    Arrays.fill(blockCounts, 0);
  }

  /** The threshold for the next block: the pooled estimate of the quantile (C_0 before any release). */
  double threshold() {
    return quantileThreshold(quantile);
  }

  /** The pooled estimate of the {@code q}-quantile of the norms (C_0 before any release). */
  double quantileThreshold(double q) {
    if (pooledSamples == 0) {
      return initialThreshold;
    }
    double above = (1 - q) * pooledSamples;
    double cumulative = 0;
    for (int j = 0; j < BINS - 1; j++) {
      if (cumulative + pooled[j] >= above) {
        // pooled[j] >= above - cumulative > 0 here: the crossing lies in this bin.
        double fraction = (above - cumulative) / pooled[j];
        return upperEdge(j) * StrictMath.pow(2, -fraction / BINS_PER_OCTAVE);
      }
      cumulative += pooled[j];
    }
    return upperEdge(BINS - 1);
  }

  /**
   * The share of the last released block's norms that its noisy histogram puts above {@code threshold}, in [0, 1]
   * (interpolated geometrically within the bin that holds the threshold, as {@link #threshold()} does); NaN before
   * the first release of this instance. A function of a released histogram and public values: post-processing.
   */
  double lastBlockShareAbove(double threshold) {
    if (lastBlockSamples == 0) {
      return Double.NaN;
    }
    double mass = 0;
    // The last bin, [0, C_0 2^-OCTAVES], is never above a threshold: threshold() returns at least its upper edge.
    for (int j = 0; j < BINS - 1; j++) {
      double upper = upperEdge(j);
      double lower = upperEdge(j + 1);
      if (lower >= threshold) {
        mass += lastBlock[j];
      } else if (upper > threshold) {
        mass += lastBlock[j] * StrictMath.log(upper / threshold) / grid.logWidth(j);
      }
    }
    return Math.max(0, Math.min(1, mass / lastBlockSamples));
  }

  long pooledSamples() {
    return pooledSamples;
  }

  double[] pooled() {
    return pooled.clone();
  }

  void writeTo(DataOutput out) throws IOException {
    for (long count : blockCounts) {
      out.writeLong(count);
    }
    for (double value : pooled) {
      out.writeDouble(value);
    }
    out.writeLong(pooledSamples);
  }

  static NormQuantileHistogram readFrom(DataInput in, double initialThreshold, double quantile, double sigma,
      NoiseChoice sampling) throws IOException {
    long[] counts = new long[BINS];
    for (int j = 0; j < BINS; j++) {
      counts[j] = in.readLong();
      if (counts[j] < 0) {
        throw new IOException("corrupt adaptive clipping state: negative count " + counts[j]);
      }
    }
    double[] pooled = new double[BINS];
    for (int j = 0; j < BINS; j++) {
      pooled[j] = in.readDouble();
      if (!Double.isFinite(pooled[j])) {
        throw new IOException("corrupt adaptive clipping state: histogram bin " + pooled[j]);
      }
    }
    long samples = in.readLong();
    if (samples < 0) {
      throw new IOException("corrupt adaptive clipping state: " + samples + " samples");
    }
    NormQuantileHistogram histogram = new NormQuantileHistogram(initialThreshold, quantile, sigma, sampling, pooled, samples);
    System.arraycopy(counts, 0, histogram.blockCounts, 0, BINS);
    return histogram;
  }
}
