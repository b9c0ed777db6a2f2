package org.dpstream.core.online;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.dpstream.core.privacy.PrivatePrefixSums;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseStream;

/**
 * The running prefix sums of adaptive clipping ({@link AdaptiveClipPlan}): one prefix-sum mechanism per epoch on
 * the clipped increments divided by their block's threshold, and the release G_t = (release at the live block's
 * start) + C_k (mechanism's release now - its release at the block's start). At the end of a block its norm
 * histogram is released with noise and the next block opens at the threshold the pooled histograms give.
 *
 * <p>Each step: {@link #threshold()} says where to clip, {@link #recordNorm} takes the norm of the unclipped
 * increment (for the histogram), then {@link #addAndRelease} the clipped one.
 *
 * <p>Warm-up: the first block of the first epoch feeds no mechanism. Its samples only fill the first histogram
 * ({@link #warmUp}); the model starts learning at the next block, at the first private threshold, where the first
 * epoch's mechanism starts. Later epochs start from the threshold they inherit and have no warm-up.
 *
 * <p>State, O(d): epoch, steps in the epoch and in all, the next step's threshold, the release at the live block's
 * start and the mechanism's release there, the histogram (the live block's exact counts and the released pool) and
 * the epoch mechanism's own snapshot; its noise is regenerated from the key, so a replay is bit-identical. Not
 * thread-safe.
 */
final class AdaptiveClipPrefixSums implements PrivatePrefixSums {

  /** Version 2: one mechanism per epoch on normalised leaves (version 1 had one per block). */
  static final byte FORMAT_VERSION = 2;

  private final AdaptiveClipPlan plan;
  private final ClipBlockSchedule schedule;
  private final KeyedNoiseSource source;
  private final NoiseStream histogramBits;
  private final NormQuantileHistogram histogram;
  /** G at the live block's start: the releases of every finished block, all epochs. */
  private final double[] releasedBefore;
  /** The epoch mechanism's release at the live block's start (0 at the epoch's start). */
  private final double[] mechanismAtBlockStart;
  private final double[] normalised;
  private final double[] mechanismRelease;
  private final double[] lastRelease;
  private long epoch;
  private long stepsInEpoch;
  private long totalSteps;
  private double threshold;
  // The block of the next step: (blockEpoch, block), and the mechanism of blockEpoch (null in the warm-up).
  private long blockEpoch;
  private int block;
  private PrivatePrefixSums mechanism;
  private double pendingNorm = Double.NaN;
  private double releasedClipRate = Double.NaN;

  private AdaptiveClipPrefixSums(AdaptiveClipPlan plan, KeyedNoiseSource source, NormQuantileHistogram histogram,
      double[] releasedBefore, double[] mechanismAtBlockStart, long epoch, long stepsInEpoch, long totalSteps,
      double threshold) {
    this.plan = plan;
    this.schedule = plan.schedule();
    this.source = source;
    this.histogramBits = source.forStream(AdaptiveClipPlan.HISTOGRAM_PURPOSE, plan.spec().modelId());
    this.histogram = histogram;
    this.releasedBefore = releasedBefore;
    this.mechanismAtBlockStart = mechanismAtBlockStart;
    int d = plan.spec().dimension();
    this.normalised = new double[d];
    this.mechanismRelease = new double[d];
    this.lastRelease = new double[d];
    this.epoch = epoch;
    this.stepsInEpoch = stepsInEpoch;
    this.totalSteps = totalSteps;
    this.threshold = threshold;
    boolean epochDone = stepsInEpoch == plan.spec().horizon();
    this.blockEpoch = epochDone ? epoch + 1 : epoch;
    this.block = epochDone ? 0 : schedule.blockOf(stepsInEpoch + 1);
  }

  static AdaptiveClipPrefixSums start(AdaptiveClipPlan plan, KeyedNoiseSource source) {
    double initial = plan.initialThreshold();
    int d = plan.spec().dimension();
    return new AdaptiveClipPrefixSums(plan, source,
        NormQuantileHistogram.start(initial, plan.quantile(), plan.histogramSigma(), plan.spec().noise()),
        new double[d], new double[d], 0, 0, 0, initial);
  }

  static AdaptiveClipPrefixSums readFrom(AdaptiveClipPlan plan, DataInput in, KeyedNoiseSource source) throws IOException {
    byte version = in.readByte();
    if (version != FORMAT_VERSION) {
      throw new IOException("adaptive clipping state: unknown format version " + version + " (this build reads "
          + FORMAT_VERSION + ")");
    }
    long epoch = in.readLong();
    long stepsInEpoch = in.readLong();
    long totalSteps = in.readLong();
    double threshold = in.readDouble();
    if (epoch < 0 || stepsInEpoch < 0 || stepsInEpoch > plan.spec().horizon() || totalSteps < stepsInEpoch
        || !(threshold > 0 && threshold <= plan.initialThreshold())) {
      throw new IOException("corrupt adaptive clipping state: epoch " + epoch + ", " + stepsInEpoch + " of "
          + totalSteps + " steps, threshold " + threshold);
    }
    int d = plan.spec().dimension();
    double[] releasedBefore = readFinite(in, d, "released sum");
    double[] atBlockStart = readFinite(in, d, "block start");
    NormQuantileHistogram histogram =
        NormQuantileHistogram.readFrom(in, plan.initialThreshold(), plan.quantile(), plan.histogramSigma(),
            plan.spec().noise());
    AdaptiveClipPrefixSums sums = new AdaptiveClipPrefixSums(plan, source, histogram, releasedBefore, atBlockStart,
        epoch, stepsInEpoch, totalSteps, threshold);
    if (sums.warmingUp()) {
      return sums;
    }
    AdaptiveClipPlan.Epoch live = plan.epoch(sums.blockEpoch);
    sums.mechanism = live.plan().restore(live.spec(), in, AdaptiveClipPlan.epochSource(source, sums.blockEpoch));
    long expected = sums.blockEpoch != epoch ? 0 : plan.mechanismStep(epoch, stepsInEpoch);
    if (sums.mechanism.totalSteps() != expected) {
      throw new IOException("inconsistent adaptive clipping state: the epoch's mechanism holds "
          + sums.mechanism.totalSteps() + " steps, expected " + expected);
    }
    return sums;
  }

  private static double[] readFinite(DataInput in, int count, String name) throws IOException {
    double[] values = new double[count];
    for (int i = 0; i < count; i++) {
      values[i] = in.readDouble();
      if (!Double.isFinite(values[i])) {
        throw new IOException("corrupt adaptive clipping state: " + name + " " + values[i]);
      }
    }
    return values;
  }

  /** Whether the next step is in the warm-up: its sample only goes into the histogram. */
  boolean warmingUp() {
    return blockEpoch == 0 && block == 0;
  }

  /** The steps of the warm-up: the model's own steps are counted from its end. */
  long warmUpSteps() {
    return plan.warmUpSteps();
  }

  /** A warm-up step: the sample's increment norm goes into the first histogram, and nothing is released. */
  void warmUp(double unclippedNorm) {
    if (!warmingUp()) {
      throw new IllegalStateException("the warm-up is over");
    }
    histogram.record(unclippedNorm);
    stepsInEpoch++;
    totalSteps++;
    if (stepsInEpoch == schedule.length(0)) {
      finishBlock();
    }
  }

  /** The threshold the next increment is clipped to (l2). */
  double threshold() {
    return threshold;
  }

  /** The l2 norm of the next increment before clipping: goes into the live block's histogram. */
  void recordNorm(double unclippedNorm) {
    pendingNorm = unclippedNorm;
  }

  /**
   * What a sample in the live epoch costs once the next step is released: the epoch mechanism's rho by then plus
   * its histogram's, as the mechanism's privacy map prices it; in the warm-up, the histogram's alone.
   */
  PrivacyBudget costOfNextStep() {
    if (warmingUp()) {
      return plan.warmUpCost();
    }
    long position = blockEpoch != epoch ? 1 : stepsInEpoch + 1;
    return plan.epoch(blockEpoch).calibration().spentAfter(plan.mechanismStep(blockEpoch, position));
  }

  /**
   * Adds the increment clipped to {@link #threshold()} (in l2, by {@code NormClipper}: the caller's contract): the
   * epoch's mechanism takes it divided by the threshold, and the release is G at the block's start plus the threshold
   * times the mechanism's increment since.
   */
  @Override
  public void addAndRelease(double[] leaf, double[] release) {
    if (warmingUp()) {
      throw new IllegalStateException("a warm-up step releases nothing: use warmUp");
    }
    if (Double.isNaN(pendingNorm)) {
      throw new IllegalStateException("adaptive clipping needs the increment's norm (recordNorm) before its leaf");
    }
    // The leaf's computed norm is at most C (NormClipper), so its exact norm is at most C (1 + d 2^-52); each
    // quotient is correctly rounded (2^-53), so the normalised leaf's exact norm is at most 1 + (d + 1) 2^-52, within
    // the unit plan's margin max(2^-40, d 2^-48) (TreeNoisePlan.incrementBound): no second clip is needed.
    for (int i = 0; i < normalised.length; i++) {
      normalised[i] = leaf[i] / threshold;
    }
    mechanism.addAndRelease(normalised, mechanismRelease); // a failure here changes nothing
    for (int i = 0; i < release.length; i++) {
      release[i] = releasedBefore[i] + threshold * (mechanismRelease[i] - mechanismAtBlockStart[i]);
      lastRelease[i] = release[i];
    }
    histogram.record(pendingNorm);
    pendingNorm = Double.NaN;
    if (blockEpoch != epoch) {
      epoch = blockEpoch;
      stepsInEpoch = 0;
    }
    stepsInEpoch++;
    totalSteps++;
    if (stepsInEpoch == schedule.start(block) + schedule.length(block)) {
      finishBlock();
    }
  }

  /** The block's last release stays in all later ones; its histogram is released and the next block opens. */
  private void finishBlock() {
    if (!warmingUp()) {
      System.arraycopy(lastRelease, 0, releasedBefore, 0, lastRelease.length);
      System.arraycopy(mechanismRelease, 0, mechanismAtBlockStart, 0, mechanismRelease.length);
    }
    histogram.releaseBlock(histogramBits.at(epoch, block));
    releasedClipRate = histogram.lastBlockShareAbove(threshold);
    block = (block + 1) % schedule.blockCount();
    blockEpoch = block == 0 ? epoch + 1 : epoch;
    long releases = blockEpoch * schedule.blockCount() + block; // the histograms pooled: one per finished block
    threshold = plan.thresholdFor(histogram, blockEpoch, block, releases);
    boolean epochStarts = block == 0 || (blockEpoch == 0 && block == 1);
    if (epochStarts) {
      AdaptiveClipPlan.Epoch live = plan.epoch(blockEpoch);
      mechanism = live.plan().start(live.spec(), AdaptiveClipPlan.epochSource(source, blockEpoch));
      java.util.Arrays.fill(mechanismAtBlockStart, 0);
    }
  }

  @Override
  public long epoch() {
    return epoch;
  }

  @Override
  public long stepsInEpoch() {
    return stepsInEpoch;
  }

  @Override
  public long totalSteps() {
    return totalSteps;
  }

  /**
   * The clipping rate of the last finished block as its released histogram tells it: the noisy share of its
   * increments' norms above the threshold the block clipped to (NaN until a block finishes in this instance). Public:
   * a function of a released histogram, the block's length and threshold, unlike the exact count of clipped samples.
   */
  double releasedClipRate() {
    return releasedClipRate;
  }

  /** The histograms released so far, pooled (test seam). */
  double[] pooledHistogram() {
    return histogram.pooled();
  }

  @Override
  public void writeTo(DataOutput out) throws IOException {
    out.writeByte(FORMAT_VERSION);
    out.writeLong(epoch);
    out.writeLong(stepsInEpoch);
    out.writeLong(totalSteps);
    out.writeDouble(threshold);
    for (double value : releasedBefore) {
      out.writeDouble(value);
    }
    for (double value : mechanismAtBlockStart) {
      out.writeDouble(value);
    }
    histogram.writeTo(out);
    if (mechanism != null) {
      mechanism.writeTo(out);
    }
  }
}
