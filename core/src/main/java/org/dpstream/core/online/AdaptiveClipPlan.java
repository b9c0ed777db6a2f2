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
 * Private adaptive clipping ({@code clip: {mode: adaptive}}): the prefix sums of whole-clipped increments whose
 * threshold is chosen privately online.
 *
 * <p>An epoch of n steps is cut into the public blocks of {@link ClipBlockSchedule}; block k clips every increment
 * to its threshold C_k (l2). The epoch has <b>one</b> prefix-sum mechanism, made by the plan the spec's accountant
 * chooses ({@link PrefixSumPlan#choose}: the zCDP tree, the factorization, the BLT or the exact BLT) for a spec with
 * {@code clip: fixed 1}, the epoch's leaves as horizon and the budget of {@link AdaptiveClipBudget#blockBudget}. It
 * takes each clipped increment divided by its block's threshold: leaves of norm at most 1 (plus the float margin of
 * fixed clipping, which covers the division's rounding) whatever the thresholds, so its sensitivity is 2 plus the
 * lattice slack. The release at step t is
 * the sum over the blocks so far of C_k times the mechanism's release increment over the block's steps:
 * post-processing, since the thresholds are released values. C_0 is the worst-case bound in l2 (public, from the
 * declared bounds); C_(k+1) is a function of the released noisy histograms of the norms ({@link
 * NormQuantileHistogram}) and of the spec ({@link #thresholdFor}). docs/privacy-layer.md has the privacy argument.
 *
 * <p>Why one mechanism per epoch, not one per block: the noise of a finished block's total stays in every later
 * release, so with a fresh mechanism per block the totals of all finished blocks add up (at n = 10^4 seven blocks:
 * about 4 times the variance of one BLT over the epoch at the same threshold). On normalised leaves the epoch's
 * noise is one mechanism's, scaled by the thresholds.
 *
 * <p>The first epoch's first block is a warm-up: its samples only fill the first histogram, so its mechanism has n
 * minus the warm-up's length leaves; later epochs have n.
 */
final class AdaptiveClipPlan implements PrefixSumPlan {

  /** The purpose of the histograms' noise stream. */
  static final String HISTOGRAM_PURPOSE = "adaptive-clip-histogram";

  /** The normalised leaves' clip bound. */
  static final double UNIT = 1.0;

  private final OnlineModelSpec spec;
  private final AdaptiveClipBudget budget;
  private final ClipBlockSchedule schedule;
  private final double initialThreshold;
  private final double calibrationScale;
  private final double histogramSigma;
  private final Epoch first;
  private final Epoch later;
  private final PrivacyBudget warmUpCost;
  private final PrivacyCalibration calibration;

  /**
   * The mechanism of an epoch: its spec (clip fixed 1, horizon its leaves) and the plan it chose. Its calibration's
   * {@code spentAfter} is what a sample of the epoch costs, its histogram included.
   */
  record Epoch(OnlineModelSpec spec, PrefixSumPlan plan) {

    GaussianZcdpMap calibration() {
      return (GaussianZcdpMap) plan.calibration();
    }

    ReleaseNoise noise() {
      return (ReleaseNoise) plan;
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
    // The spec's (epsilon, delta) becomes rho here, once; the histogram and the epochs' mechanisms split it in rho.
    this.budget = AdaptiveClipBudget.of(ZcdpBudget.of(spec.budget()), spec.incrementClipping().quantileShare(),
        spec.participations());
    this.schedule = ClipBlockSchedule.forHorizon(spec.horizon());
    this.initialThreshold = initialThreshold(spec);
    this.calibrationScale = calibrationScale;
    this.histogramSigma = histogramNoise ? budget.histogramSigma() : 0;
    this.first = epochMechanism(spec.horizon() - warmUpSteps());
    this.later = epochMechanism(spec.horizon());
    this.warmUpCost = budget.spent(0);
    this.calibration = new NominalCalibration();
  }

  static AdaptiveClipPlan of(OnlineModelSpec spec) {
    return new AdaptiveClipPlan(spec, 1, true);
  }

  /**
   * Test seam for the audit's negative controls: the epoch's noise calibrated for leaves of norm {@code
   * calibrationScale} (the leaves have norm 1; for the exact BLT, its noise scaled by it), and the histograms
   * released with or without noise.
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

  /** The mechanism of an epoch of {@code leaves} normalised leaves (noise for the calibration scale: 1 but in tests). */
  private Epoch epochMechanism(long leaves) {
    OnlineModelSpec epochSpec = epochSpec(leaves, UNIT * calibrationScale);
    PrefixSumPlan plan = epochPlan(epochSpec);
    if (calibrationScale != 1 && plan instanceof ExactBltPlan) {
      // The exact BLT clamps every coordinate to its bound, which would undo a mis-scaled bound in the audit's
      // negative control: there the bound stays 1 and the noise is scaled instead.
      epochSpec = epochSpec(leaves, UNIT);
      plan = ((ExactBltPlan) epochPlan(epochSpec)).withNoiseScale(calibrationScale);
    }
    if (!(plan.calibration() instanceof GaussianZcdpMap) || !(plan instanceof ReleaseNoise)) {
      throw new IllegalArgumentException("clip.mode: adaptive needs a zCDP-accounted mechanism, got "
          + plan.calibration().accountant());
    }
    return new Epoch(epochSpec, plan);
  }

  /**
   * The epoch mechanism's spec. It keeps the model's (epsilon, delta), which its plan reads only to name the
   * ledger's budget: the plan is calibrated for {@link AdaptiveClipBudget#blockBudget}.
   */
  private OnlineModelSpec epochSpec(long leaves, double bound) {
    AccountantChoice accountant = spec.accountant() == AccountantChoice.AUTO ? AccountantChoice.ZCDP : spec.accountant();
    return new OnlineModelSpec(spec.modelId(), spec.dimension(), spec.loss(), spec.domain(), spec.budget(),
        leaves, spec.clipBounds(), accountant, spec.data(), IncrementClipping.fixed(bound), spec.learningRate(),
        spec.noise()).withParticipations(spec.participations());
  }

  /**
   * auto: the BLT (continuous, or exact for discrete noise) where its predicted worst-release error beats the zCDP
   * tree's, as for a model without adaptive clipping; the paper's tree is not zCDP-accounted, so auto never means it
   * here.
   */
  private PrefixSumPlan epochPlan(OnlineModelSpec epochSpec) {
    ZcdpBudget epochBudget = budget.blockBudget();
    if (spec.accountant() == AccountantChoice.AUTO) {
      return spec.noise() == NoiseChoice.CONTINUOUS
          ? BltPlan.orTree(epochSpec, epochBudget)
          : ExactBltPlan.orTree(epochSpec, epochBudget);
    }
    return PrefixSumPlan.choose(epochSpec, epochBudget);
  }

  /** The mechanism of epoch {@code epoch}: the first has the warm-up's steps fewer. */
  Epoch epoch(long epoch) {
    return epoch == 0 ? first : later;
  }

  /** The steps of the first epoch's warm-up, which only fill the first histogram. */
  long warmUpSteps() {
    return schedule.length(0);
  }

  /** The mechanism's step of the epoch's position {@code position} (1-based): the warm-up's are not its. */
  long mechanismStep(long epoch, long position) {
    return epoch == 0 ? position - warmUpSteps() : position;
  }

  /**
   * The threshold of block {@code block} of epoch {@code epoch}, from the released histograms pooled so far
   * ({@code releases} of them): the balanced threshold ({@link BalancedClipThreshold}) or, with a quantile, that
   * quantile. A function of released values and the spec only.
   */
  double thresholdFor(NormQuantileHistogram histogram, long epoch, int block, long releases) {
    if (!spec.incrementClipping().isBalanced()) {
      return histogram.threshold();
    }
    return BalancedClipThreshold.threshold(histogram, releases, histogramSigma, errorWeights(epoch, block));
  }

  /**
   * The public weights of block {@code block} of epoch {@code epoch} in J(C) = a beta(C)^2 + b C^2, for the block's
   * total, which stays in every later release: its L biases add at most to L beta(C) (a = L^2), and its noise is C
   * times the epoch mechanism's noise increment over the block, of variance d C^2 v(L) (b = d v(L), v at unit
   * threshold). Public functions of the spec (epsilon, delta, d, the horizon, the schedule, the mechanism).
   */
  BalancedClipThreshold.ErrorWeights errorWeights(long epoch, int block) {
    long length = schedule.length(block);
    long from = mechanismStep(epoch, schedule.start(block));
    double variance = epoch(epoch).noise().incrementNoiseVariance(from, from + length);
    return new BalancedClipThreshold.ErrorWeights((double) length * length,
        spec.dimension() * variance / (UNIT * UNIT));
  }

  /**
   * The noise of epoch e's mechanism: its own part of the model's keyed source, under the key of that epoch (the
   * epoch's mechanism counts its own epochs from 0, so the hand-over to another key is decided here).
   */
  static KeyedNoiseSource epochSource(KeyedNoiseSource source, long epoch) {
    return source.forEpoch(epoch).part("adaptive-clip-epoch/" + epoch);
  }

  /** What a sample of the warm-up costs: its histogram alone. */
  PrivacyBudget warmUpCost() {
    return warmUpCost;
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

  double quantile() {
    return spec.incrementClipping().quantile();
  }

  @Override
  public PrivacyCalibration calibration() {
    return calibration;
  }

  @Override
  public String describe() {
    // The release's algorithm names the sampler when it is exact (the epochs' mechanisms and the histogram).
    String sampler = spec.noise() == NoiseChoice.DISCRETE ? "/discrete-gaussian" : "";
    return budget.accountant() + "(" + schedule.blockCount() + " blocks, C0=" + initialThreshold + ", sigma_h="
        + histogramSigma + ")/" + later.calibration().accountant() + sampler;
  }

  @Override
  public LpNorm clipNorm() {
    return LpNorm.L2;
  }

  /**
   * Everything the noise depends on: the histograms' sigma, the first threshold and the schedule, the threshold rule
   * (the quantile, or the balanced rule's constants), both epochs' mechanisms' laws (at unit leaves: a threshold
   * scales the released noise, and the thresholds are released values the state holds), and a histogram's known
   * answer.
   */
  @Override
  public byte[] noiseLaw(OnlineModelSpec ignored) {
    NoiseLaw law = NoiseLaw.of("adaptive-clip").text("accountant", budget.accountant())
        .number("histogram sigma", histogramSigma).number("initial threshold", initialThreshold)
        .numbers("block ends", blockEnds()).number("quantile", quantile())
        .number("balanced significance", BalancedClipThreshold.SIGNIFICANCE)
        .number("balanced points per bin", BalancedClipThreshold.POINTS_PER_BIN)
        .law("first epoch", first.plan().noiseLaw(first.spec()))
        .law("later epochs", later.plan().noiseLaw(later.spec()));
    NormQuantileHistogram histogram =
        NormQuantileHistogram.start(initialThreshold, quantile(), histogramSigma, spec.noise());
    histogram.releaseBlock(NoiseLaw.probeBits(HISTOGRAM_PURPOSE));
    return law.numbers("histogram", histogram.pooled()).digest();
  }

  private long[] blockEnds() {
    long[] ends = new long[schedule.blockCount()];
    for (int k = 0; k < ends.length; k++) {
      ends[k] = schedule.start(k) + schedule.length(k);
    }
    return ends;
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
   * The model's privacy map as a function of the epoch's position alone: what a sample at position t has cost by
   * then, its histogram included; the larger of the two epochs' mechanisms (the first has a warm-up). The model
   * reserves with its live epoch's own map ({@link AdaptiveClipPrefixSums#costOfNextStep}).
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

    /** Non-decreasing in t (the contract): each epoch's map is, and so is their maximum. */
    @Override
    public PrivacyBudget spentAfter(long step) {
      if (step < 1) {
        throw new IllegalArgumentException("step must be at least 1, got " + step);
      }
      long t = Math.min(step, spec.horizon());
      PrivacyBudget spent = later.calibration().spentAfter(t);
      long firstStep = mechanismStep(0, t);
      if (firstStep >= 1) {
        PrivacyBudget firstSpent = first.calibration().spentAfter(firstStep);
        spent = firstSpent.epsilon() > spent.epsilon() ? firstSpent : spent;
      }
      return spent;
    }
  }
}
