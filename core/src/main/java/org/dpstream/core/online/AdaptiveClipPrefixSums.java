package org.dpstream.core.online;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.dpstream.core.privacy.PrivatePrefixSums;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseStream;

/**
 * The running prefix sums of adaptive clipping ({@link AdaptiveClipPlan}): the sum of the finished blocks'
 * last releases plus the live block's noisy prefix sum. At the end of a block its norm histogram is released
 * with noise and the next block opens at the threshold the pooled histograms give.
 *
 * <p>Each step: {@link #threshold()} says where to clip, {@link #recordNorm} takes the norm of the unclipped
 * increment (for the histogram), then {@link #addAndRelease} the clipped one.
 *
 * <p>Warm-up: the first block of the first epoch has no prefix-sum mechanism. Its samples only fill the
 * first histogram ({@link #warmUp}), so no prefix sum ever carries noise calibrated to the worst-case C_0 (a
 * finished block's noisy total stays in every later release, and at C_0 it would dominate them all); the
 * model starts learning at the next block, at the first private threshold. Later epochs start from the
 * threshold they inherit and have no warm-up.
 *
 * <p>State, O(d): epoch, steps in the epoch and in all, the next step's threshold, the finished blocks' sum,
 * the histogram (the live block's exact counts and the released pool) and the live block's own snapshot; its
 * noise is regenerated from the key, so a replay is bit-identical. Not thread-safe.
 */
final class AdaptiveClipPrefixSums implements PrivatePrefixSums {

  static final byte FORMAT_VERSION = 1;

  private final AdaptiveClipPlan plan;
  private final ClipBlockSchedule schedule;
  private final KeyedNoiseSource source;
  private final NoiseStream histogramBits;
  private final NormQuantileHistogram histogram;
  private final double[] finishedBlocks;
  private final double[] blockRelease;
  private long epoch;
  private long stepsInEpoch;
  private long totalSteps;
  private double threshold;
  // The block of the next step: (blockEpoch, block), its spec and plan, and its prefix sums.
  private long blockEpoch;
  private int block;
  private AdaptiveClipPlan.Block live;
  private PrivatePrefixSums liveSums;
  private double pendingNorm = Double.NaN;
  private double releasedClipRate = Double.NaN;
  private double memoRho = Double.NaN;
  private PrivacyBudget memoSpent;

  private AdaptiveClipPrefixSums(AdaptiveClipPlan plan, KeyedNoiseSource source, NormQuantileHistogram histogram,
      double[] finishedBlocks, long epoch, long stepsInEpoch, long totalSteps, double threshold) {
    this.plan = plan;
    this.schedule = plan.schedule();
    this.source = source;
    this.histogramBits = source.forStream(AdaptiveClipPlan.HISTOGRAM_PURPOSE, plan.spec().modelId());
    this.histogram = histogram;
    this.finishedBlocks = finishedBlocks;
    this.blockRelease = new double[plan.spec().dimension()];
    this.epoch = epoch;
    this.stepsInEpoch = stepsInEpoch;
    this.totalSteps = totalSteps;
    this.threshold = threshold;
    boolean epochDone = stepsInEpoch == plan.spec().horizon();
    this.blockEpoch = epochDone ? epoch + 1 : epoch;
    this.block = epochDone ? 0 : schedule.blockOf(stepsInEpoch + 1);
    this.live = warmingUp() ? null : plan.block(block, threshold);
  }

  static AdaptiveClipPrefixSums start(AdaptiveClipPlan plan, KeyedNoiseSource source) {
    double initial = plan.initialThreshold();
    AdaptiveClipPrefixSums sums = new AdaptiveClipPrefixSums(plan, source,
        NormQuantileHistogram.start(initial, plan.quantile(), plan.histogramSigma(), plan.spec().noise()),
        new double[plan.spec().dimension()], 0, 0, 0, initial);
    return sums;
  }

  static AdaptiveClipPrefixSums readFrom(AdaptiveClipPlan plan, DataInput in, KeyedNoiseSource source) throws IOException {
    byte version = in.readByte();
    if (version != FORMAT_VERSION) {
      throw new IOException("adaptive clipping state: unknown format version " + version);
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
    double[] finished = new double[plan.spec().dimension()];
    for (int i = 0; i < finished.length; i++) {
      finished[i] = in.readDouble();
      if (!Double.isFinite(finished[i])) {
        throw new IOException("corrupt adaptive clipping state: released sum " + finished[i]);
      }
    }
    NormQuantileHistogram histogram =
        NormQuantileHistogram.readFrom(in, plan.initialThreshold(), plan.quantile(), plan.histogramSigma(),
            plan.spec().noise());
    AdaptiveClipPrefixSums sums =
        new AdaptiveClipPrefixSums(plan, source, histogram, finished, epoch, stepsInEpoch, totalSteps, threshold);
    if (sums.warmingUp()) {
      return sums;
    }
    sums.liveSums = sums.live.plan().restore(sums.live.spec(), in, sums.liveSource());
    long expected = stepsInEpoch == plan.spec().horizon() ? 0 : stepsInEpoch - sums.schedule.start(sums.block);
    if (sums.liveSums.totalSteps() != expected) {
      throw new IOException("inconsistent adaptive clipping state: block " + sums.block + " holds "
          + sums.liveSums.totalSteps() + " steps, expected " + expected);
    }
    return sums;
  }

  private KeyedNoiseSource liveSource() {
    return AdaptiveClipPlan.blockSource(source, blockEpoch, block);
  }

  /** Whether the next step is in the warm-up: its sample only goes into the histogram. */
  boolean warmingUp() {
    return blockEpoch == 0 && block == 0;
  }

  /** The steps of the warm-up: the model's own steps are counted from its end. */
  long warmUpSteps() {
    return schedule.length(0);
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
   * What a sample in the live block costs once the next step is released: the live block's rho by then plus
   * its histogram's (memoised: it changes only where the block's privacy map does).
   */
  PrivacyBudget costOfNextStep() {
    long step = stepsInEpoch == plan.spec().horizon() ? 1 : stepsInEpoch + 1;
    double rho = warmingUp() ? 0 : live.calibration().rhoAfter(step - schedule.start(block));
    if (rho != memoRho) {
      memoSpent = plan.budget().spent(rho);
      memoRho = rho;
    }
    return memoSpent;
  }

  @Override
  public void addAndRelease(double[] leaf, double[] release) {
    if (warmingUp()) {
      throw new IllegalStateException("a warm-up step releases nothing: use warmUp");
    }
    if (Double.isNaN(pendingNorm)) {
      throw new IllegalStateException("adaptive clipping needs the increment's norm (recordNorm) before its leaf");
    }
    liveSums.addAndRelease(leaf, blockRelease);
    for (int i = 0; i < release.length; i++) {
      release[i] = finishedBlocks[i] + blockRelease[i];
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

  /** The block's last release is its noisy total; its histogram is released and the next block opens. */
  private void finishBlock() {
    if (!warmingUp()) {
      for (int i = 0; i < finishedBlocks.length; i++) {
        finishedBlocks[i] += blockRelease[i];
      }
    }
    histogram.releaseBlock(histogramBits.at(epoch, block));
    releasedClipRate = histogram.lastBlockShareAbove(threshold);
    threshold = histogram.threshold();
    block = (block + 1) % schedule.blockCount();
    blockEpoch = block == 0 ? epoch + 1 : epoch;
    live = plan.block(block, threshold);
    liveSums = live.plan().start(live.spec(), liveSource());
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
    for (double value : finishedBlocks) {
      out.writeDouble(value);
    }
    histogram.writeTo(out);
    if (liveSums != null) {
      liveSums.writeTo(out);
    }
  }
}
