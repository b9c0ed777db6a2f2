package org.dpstream.core.online;

import java.io.DataInput;
import java.io.IOException;
import org.dpstream.core.geometry.LpNorm;
import org.dpstream.core.privacy.PrivatePrefixSums;
import org.dpstream.core.privacy.accounting.AdaptiveClipBudget;
import org.dpstream.core.privacy.accounting.GaussianZcdpMap;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyCalibration;
import org.dpstream.core.privacy.accounting.ZcdpBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.state.NoiseLaw;

/**
 * Private adaptive clipping ({@code clip: {mode: adaptive}}): the prefix sums of whole-clipped increments
 * whose threshold follows a quantile of ||g_t||_2, estimated privately online.
 *
 * <p>An epoch of n steps is cut into the public blocks of {@link ClipBlockSchedule}. Block k clips every
 * increment to its threshold C_k (l2) and has its own prefix-sum mechanism, made by the plan the spec's
 * accountant chooses ({@link PrefixSumPlan#choose}: the zCDP tree, the factorization, or any other
 * zCDP-accounted plan) for a spec with {@code clip: fixed C_k} and horizon the block's length, calibrated in rho
 * for {@link AdaptiveClipBudget#blockBudget}: its sensitivity is 2 C_k plus the lattice slack, as for fixed
 * clipping, and its privacy map prices each step with the histogram's rho beside it. The release at step t is
 * the sum of the earlier blocks' last releases (their noisy totals) plus the current block's noisy prefix sum:
 * post-processing. C_0 is the worst-case bound in l2 (public, from the
 * declared bounds); C_{k+1} is a function of the released noisy histograms of the norms
 * ({@link NormQuantileHistogram}). docs/privacy-layer.md has the privacy argument.
 */
final class AdaptiveClipPlan implements PrefixSumPlan {

  /** The purpose of the histograms' noise stream. */
  static final String HISTOGRAM_PURPOSE = "adaptive-clip-histogram";

  private final OnlineModelSpec spec;
  private final AdaptiveClipBudget budget;
  private final ClipBlockSchedule schedule;
  private final double initialThreshold;
  private final double calibrationScale;
  private final double histogramSigma;
  private final GaussianZcdpMap[] nominal;
  private final PrivacyBudget warmUpCost;
  private final PrivacyCalibration calibration;

  /**
   * One block's spec (clip fixed at its threshold, horizon its length) and the plan it chose. Its calibration's
   * {@code spentAfter} is what a sample of the block costs, the histogram included.
   */
  record Block(OnlineModelSpec spec, PrefixSumPlan plan) {

    GaussianZcdpMap calibration() {
      return (GaussianZcdpMap) plan.calibration();
    }
  }

  private AdaptiveClipPlan(OnlineModelSpec spec, double calibrationScale, boolean histogramNoise) {
    if (!spec.incrementClipping().isAdaptive()) {
      throw new IllegalArgumentException("not adaptive clipping: " + spec.incrementClipping());
    }
    if (spec.accountant() == AccountantChoice.PAPER) {
      throw new IllegalArgumentException(
          "clip.mode: adaptive is accounted in zCDP: use accountant zcdp, factorization or auto, not paper");
    }
    this.spec = spec;
    // The spec's (epsilon, delta) becomes rho here, once; the histogram and the blocks split it in rho.
    this.budget = AdaptiveClipBudget.of(ZcdpBudget.of(spec.budget()), spec.incrementClipping().quantileShare(),
        spec.participations());
    this.schedule = ClipBlockSchedule.forHorizon(spec.horizon());
    this.initialThreshold = initialThreshold(spec);
    this.calibrationScale = calibrationScale;
    this.histogramSigma = histogramNoise ? budget.histogramSigma() : 0;
    this.nominal = new GaussianZcdpMap[schedule.blockCount()];
    for (int k = 0; k < nominal.length; k++) {
      nominal[k] = block(k, initialThreshold).calibration();
    }
    this.warmUpCost = budget.spent(0);
    this.calibration = new NominalCalibration();
  }

  static AdaptiveClipPlan of(OnlineModelSpec spec) {
    return new AdaptiveClipPlan(spec, 1, true);
  }

  /**
   * Test seam for the audit's negative controls: each block's noise calibrated for {@code calibrationScale}
   * times the threshold it clips to, and the histograms released with or without noise.
   */
  static AdaptiveClipPlan broken(OnlineModelSpec spec, double calibrationScale, boolean histogramNoise) {
    return new AdaptiveClipPlan(spec, calibrationScale, histogramNoise);
  }

  /**
   * C_0: the worst-case bound L + beta D of ||g||_q in l2, public (from the declared data bounds):
   * ||v||_2 &lt;= d^(1/2 - 1/q) ||v||_q for q &gt; 2 and &lt;= ||v||_q otherwise.
   */
  static double initialThreshold(OnlineModelSpec spec) {
    double q = LpNorm.dualExponent(spec.p());
    double qToL2 = q > 2 ? Math.nextUp(Math.pow(spec.dimension(), 0.5 - 1 / q)) : 1.0;
    return Math.nextUp(qToL2 * spec.clipBounds().incrementBound());
  }

  /**
   * Block k's spec and plan at threshold C: noise for C times the calibration scale (1 but in tests). The block's
   * spec keeps the model's (epsilon, delta), which its plan reads only to name the ledger's budget: the plan is
   * calibrated for {@link AdaptiveClipBudget#blockBudget}.
   */
  Block block(int k, double threshold) {
    AccountantChoice accountant = spec.accountant() == AccountantChoice.AUTO ? AccountantChoice.ZCDP : spec.accountant();
    OnlineModelSpec blockSpec = new OnlineModelSpec(spec.modelId(), spec.dimension(), spec.loss(), spec.domain(),
        spec.budget(), schedule.length(k), spec.clipBounds(), accountant, spec.data(),
        IncrementClipping.fixed(threshold * calibrationScale), spec.learningRate(), spec.noise(), null,
        spec.participations());
    // auto: the BLT where its predicted worst-release error beats the zCDP tree's (continuous noise only), as
    // for a model without adaptive clipping; the paper's tree is not zCDP-accounted, so auto never means it here.
    PrefixSumPlan plan = spec.accountant() == AccountantChoice.AUTO && spec.noise() == NoiseChoice.CONTINUOUS
        ? BltPlan.orTree(blockSpec, budget.blockBudget())
        : PrefixSumPlan.choose(blockSpec, budget.blockBudget());
    if (!(plan.calibration() instanceof GaussianZcdpMap)) {
      throw new IllegalArgumentException("clip.mode: adaptive needs a zCDP-accounted mechanism, got "
          + plan.calibration().accountant());
    }
    return new Block(blockSpec, plan);
  }

  /**
   * The noise of block k of an epoch: its own part of the model's keyed source, under the key of that epoch (the
   * block's own mechanism counts its epochs from 0, so the hand-over to another key is decided here).
   */
  static KeyedNoiseSource blockSource(KeyedNoiseSource source, long epoch, int block) {
    return source.forEpoch(epoch).part("adaptive-clip-block/" + epoch + "/" + block);
  }

  OnlineModelSpec spec() {
    return spec;
  }

  AdaptiveClipBudget budget() {
    return budget;
  }

  ClipBlockSchedule schedule() {
    return schedule;
  }

  double initialThreshold() {
    return initialThreshold;
  }

  double histogramSigma() {
    return histogramSigma;
  }

  /** What a sample of the warm-up costs: its histogram alone. */
  PrivacyBudget warmUpCost() {
    return warmUpCost;
  }

  double quantile() {
    return spec.incrementClipping().quantile();
  }

  @Override
  public PrivacyCalibration calibration() {
    return calibration;
  }

  @Override
  public String describe() {
    // The release's algorithm names the sampler when it is exact (the blocks' trees and the histogram).
    String sampler = spec.noise() == NoiseChoice.DISCRETE ? "/discrete-gaussian" : "";
    return budget.accountant() + "(" + schedule.blockCount() + " blocks, C0=" + initialThreshold + ", sigma_h="
        + histogramSigma + ")/" + nominal[nominal.length - 1].accountant() + sampler;
  }

  @Override
  public LpNorm clipNorm() {
    return LpNorm.L2;
  }

  /**
   * The histograms' sigma and schedule, every block's law at C_0 (a block's law at another threshold follows from
   * it: the threshold scales the sensitivity, and the threshold is a released value the state holds), and a
   * histogram's known answer.
   */
  @Override
  public byte[] noiseLaw(OnlineModelSpec ignored) {
    NoiseLaw law = NoiseLaw.of("adaptive-clip").text("accountant", budget.accountant())
        .number("histogram sigma", histogramSigma).number("initial threshold", initialThreshold)
        .number("blocks", schedule.blockCount());
    for (int k = 0; k < schedule.blockCount(); k++) {
      Block block = block(k, initialThreshold);
      law.number("block length", schedule.length(k)).law("block", block.plan().noiseLaw(block.spec()));
    }
    NormQuantileHistogram histogram =
        NormQuantileHistogram.start(initialThreshold, quantile(), histogramSigma, spec.noise());
    histogram.releaseBlock(NoiseLaw.probeBits(HISTOGRAM_PURPOSE));
    return law.numbers("histogram", histogram.pooled()).digest();
  }

  @Override
  public PrivatePrefixSums start(OnlineModelSpec ignored, KeyedNoiseSource source) {
    return AdaptiveClipPrefixSums.start(this, source);
  }

  @Override
  public PrivatePrefixSums restore(OnlineModelSpec ignored, DataInput in, KeyedNoiseSource source) throws IOException {
    return AdaptiveClipPrefixSums.readFrom(this, in, source);
  }

  /**
   * The model's privacy map as a function of the step alone, with every block at C_0: what a sample in the
   * block holding step t has cost by then, its histogram included. The model reserves with the live block's
   * own calibration ({@link AdaptiveClipPrefixSums#costOfNextStep}), which differs from this only in the
   * last bits of rounding, since a block's rho does not depend on its threshold.
   */
  private final class NominalCalibration implements PrivacyCalibration {

    @Override
    public String accountant() {
      return budget.accountant();
    }

    @Override
    public PrivacyBudget budget() {
      return budget.budget();
    }

    @Override
    public long horizon() {
      return spec.horizon();
    }

    /** Non-decreasing in t (the contract): the samples of finished blocks have cost their block's whole rho. */
    @Override
    public PrivacyBudget spentAfter(long step) {
      if (step < 1) {
        throw new IllegalArgumentException("step must be at least 1, got " + step);
      }
      long t = Math.min(step, spec.horizon());
      int k = schedule.blockOf(t);
      double rho = nominal[k].rhoAfter(t - schedule.start(k));
      for (int j = 0; j < k; j++) {
        rho = Math.max(rho, nominal[j].rhoAfter(schedule.length(j)));
      }
      return budget.spent(rho);
    }
  }
}
