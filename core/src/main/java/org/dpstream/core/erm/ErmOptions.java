package org.dpstream.core.erm;

import java.util.Objects;
import org.dpstream.core.erm.privacy.RdpConversion;
import org.dpstream.core.erm.privacy.ZcdpRule;

/**
 * Hyper-parameters of the ERM algorithms, one immutable bag so that a grid search (bench) varies them
 * with the withers while the algorithm is chosen by name ({@link ErmAlgorithms}). Each algorithm reads
 * only the fields documented for it and ignores the rest. All values are public: they must not be
 * computed from the private data (tuning on the data is outside the privacy guarantee, as in both papers).
 *
 * @param clipNorm C. DP-CD: the global threshold the {@link DpCd.ClippingRule} turns into C_j; DP-SGD:
 *     the per-sample l2 clip. NaN means unset, which private DP-CD / DP-SGD runs reject and non-private
 *     runs read as "no clipping"
 * @param residualClip DP-SkGD: clip of the per-sample residual |zeta(x'w) - y|, giving the public block
 *     Lipschitz constants L_U = residualClip ||b_U||_2. NaN means the loss's own bound (1 for logistic);
 *     required for the squared loss, which is not Lipschitz
 * @param stepScale s &gt; 0: coordinate steps are s / M_j (DP-CD, DP-SkGD; theory s = 1), the SGD step is
 *     s / beta
 * @param averaging DP-CD / DP-SkGD with {@link LoopRule.FromPasses}: restart from the average after every
 *     pass (T = passes) instead of reporting the last iterate
 * @param blockCount DP-SkGD: the number b of blocks (the paper's b); 0 means d, i.e. single coordinates
 * @param batchRate DP-SGD: the Poisson sampling rate q in (0, 1]; NaN means 10 / n (the DP-CD paper's
 *     minibatches of 10)
 * @param zcdpRule DP-CD / DP-SkGD noise calibration
 * @param rdpConversion DP-SGD accountant's RDP to (epsilon, delta) conversion
 * @param loopRule DP-SkGD's choice of T and K
 * @param initialWeights w^0 (copied), or null for 0
 * @param quantileClipping DP-SGD: adapt the clipping threshold privately to a quantile of the gradient
 *     norms, starting from {@link #clipNorm} ({@link BatchQuantileClipping}); null for a fixed threshold
 */
public record ErmOptions(double clipNorm, double residualClip, double stepScale, boolean averaging,
    int blockCount, double batchRate, ZcdpRule zcdpRule, RdpConversion rdpConversion, LoopRule loopRule,
    double[] initialWeights, BatchQuantileClipping quantileClipping) {

  public ErmOptions {
    requirePositiveOrUnset(clipNorm, "clipNorm");
    requirePositiveOrUnset(residualClip, "residualClip");
    if (!(stepScale > 0) || !Double.isFinite(stepScale)) {
      throw new IllegalArgumentException("stepScale must be positive and finite, got " + stepScale);
    }
    if (blockCount < 0) {
      throw new IllegalArgumentException("blockCount must be >= 0 (0 = d), got " + blockCount);
    }
    if (!Double.isNaN(batchRate) && !(batchRate > 0 && batchRate <= 1)) {
      throw new IllegalArgumentException("batchRate must be in (0, 1], got " + batchRate);
    }
    Objects.requireNonNull(zcdpRule, "zcdpRule");
    Objects.requireNonNull(rdpConversion, "rdpConversion");
    Objects.requireNonNull(loopRule, "loopRule");
    initialWeights = initialWeights == null ? null : initialWeights.clone();
  }

  /**
   * Unset clip, loss-bound residual clip, s = 1, last iterate, b = d, q = 10/n, the papers' zCDP closed
   * form, the classic RDP conversion, passes-driven loops, w^0 = 0, a fixed clipping threshold.
   */
  public static ErmOptions defaults() {
    return new ErmOptions(Double.NaN, Double.NaN, 1.0, false, 0, Double.NaN,
        ZcdpRule.PAPER_CLOSED_FORM, RdpConversion.CLASSIC, LoopRule.fromPasses(), null, null);
  }

  public ErmOptions withClipNorm(double value) {
    return new ErmOptions(value, residualClip, stepScale, averaging, blockCount, batchRate, zcdpRule,
        rdpConversion, loopRule, initialWeights, quantileClipping);
  }

  public ErmOptions withResidualClip(double value) {
    return new ErmOptions(clipNorm, value, stepScale, averaging, blockCount, batchRate, zcdpRule,
        rdpConversion, loopRule, initialWeights, quantileClipping);
  }

  public ErmOptions withStepScale(double value) {
    return new ErmOptions(clipNorm, residualClip, value, averaging, blockCount, batchRate, zcdpRule,
        rdpConversion, loopRule, initialWeights, quantileClipping);
  }

  public ErmOptions withAveraging(boolean value) {
    return new ErmOptions(clipNorm, residualClip, stepScale, value, blockCount, batchRate, zcdpRule,
        rdpConversion, loopRule, initialWeights, quantileClipping);
  }

  public ErmOptions withBlockCount(int value) {
    return new ErmOptions(clipNorm, residualClip, stepScale, averaging, value, batchRate, zcdpRule,
        rdpConversion, loopRule, initialWeights, quantileClipping);
  }

  public ErmOptions withBatchRate(double value) {
    return new ErmOptions(clipNorm, residualClip, stepScale, averaging, blockCount, value, zcdpRule,
        rdpConversion, loopRule, initialWeights, quantileClipping);
  }

  public ErmOptions withZcdpRule(ZcdpRule value) {
    return new ErmOptions(clipNorm, residualClip, stepScale, averaging, blockCount, batchRate, value,
        rdpConversion, loopRule, initialWeights, quantileClipping);
  }

  public ErmOptions withRdpConversion(RdpConversion value) {
    return new ErmOptions(clipNorm, residualClip, stepScale, averaging, blockCount, batchRate, zcdpRule,
        value, loopRule, initialWeights, quantileClipping);
  }

  public ErmOptions withLoopRule(LoopRule value) {
    return new ErmOptions(clipNorm, residualClip, stepScale, averaging, blockCount, batchRate, zcdpRule,
        rdpConversion, value, initialWeights, quantileClipping);
  }

  public ErmOptions withInitialWeights(double[] value) {
    return new ErmOptions(clipNorm, residualClip, stepScale, averaging, blockCount, batchRate, zcdpRule,
        rdpConversion, loopRule, value, quantileClipping);
  }

  public ErmOptions withQuantileClipping(BatchQuantileClipping value) {
    return new ErmOptions(clipNorm, residualClip, stepScale, averaging, blockCount, batchRate, zcdpRule,
        rdpConversion, loopRule, initialWeights, value);
  }

  /** A copy of w^0 of dimension d (zeros when unset). */
  public double[] initialWeights(int dimension) {
    if (initialWeights == null) {
      return new double[dimension];
    }
    if (initialWeights.length != dimension) {
      throw new IllegalArgumentException(
          "initial weights have dimension " + initialWeights.length + ", data " + dimension);
    }
    return initialWeights.clone();
  }

  @Override
  public double[] initialWeights() {
    return initialWeights == null ? null : initialWeights.clone();
  }

  private static void requirePositiveOrUnset(double value, String name) {
    if (!Double.isNaN(value) && !(value > 0)) {
      throw new IllegalArgumentException(name + " must be positive (or NaN for unset), got " + value);
    }
  }
}
