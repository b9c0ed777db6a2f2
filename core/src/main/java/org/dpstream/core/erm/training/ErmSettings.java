package org.dpstream.core.erm.training;

import java.util.Locale;
import org.dpstream.core.erm.privacy.ZcdpRule;

/**
 * What to train, as the command line states it: algorithm, loss, regulariser and its weight, privacy
 * budget, passes and the algorithms' public hyper-parameters. Plain values, so that the command and its
 * tests do not depend on the core ERM types ({@link ErmTrainer} translates).
 *
 * @param algorithm a registered name: dpcd-smooth, dpcd-uniform, dpskgd-importance, dpskgd-uniform, dpsgd
 * @param lambda the regulariser weight: l2 (lambda/2)||w||^2, l1 lambda||w||_1, elastic-net
 *     lambda (a||w||_1 + (1-a)/2 ||w||^2); ignored for none
 * @param l1Ratio a of the elastic net
 * @param clip the clipping threshold C (DP-CD: C_j by the rule of the algorithm; DP-SGD: per-sample l2 clip)
 * @param residualClip DP-SkGD's clip of the per-sample residual; NaN for the loss's bound
 * @param stepScale s: steps s / M_j (coordinate methods) or s / beta (DP-SGD)
 * @param scaleByBounds train on x_ij / b_j (every bound 1) and report the model in original units; then
 *     {@code clip} is in the scaled units. NaN clip: ||b||_2 of the geometry trained in
 * @param accountant the zCDP conversion of DP-CD, DP-SkGD and output perturbation
 * @param adaptiveClip DP-SGD: adapt the clip privately to a quantile of the gradient norms, from {@code clip}
 * @param expectedBatch DP-SGD: expected Poisson batch size q n; NaN for the core's default (10)
 * @param replaceOne state DP-SGD's guarantee for replace-one adjacency, like every other algorithm here:
 *     its add/remove accountant is run at (epsilon/2, delta/(1 + e^(epsilon/2))), which implies
 *     replace-one (epsilon, delta) by group privacy (a replacement is a removal and an addition)
 * @param clipQuantile DP-SGD with {@code adaptiveClip}: the target quantile gamma of the gradient norms; NaN for
 *     the default ({@link org.dpstream.core.erm.BatchQuantileClipping#DEFAULT_TARGET_QUANTILE})
 */
public record ErmSettings(String algorithm, Loss loss, Reg reg, double lambda, double l1Ratio, double epsilon,
    double delta, int passes, double clip, double residualClip, double stepScale, boolean scaleByBounds,
    Accountant accountant, boolean adaptiveClip, double expectedBatch, boolean replaceOne, double clipQuantile) {

  /** The settings with the default clip quantile. */
  public ErmSettings(String algorithm, Loss loss, Reg reg, double lambda, double l1Ratio, double epsilon,
      double delta, int passes, double clip, double residualClip, double stepScale, boolean scaleByBounds,
      Accountant accountant, boolean adaptiveClip, double expectedBatch, boolean replaceOne) {
    this(algorithm, loss, reg, lambda, l1Ratio, epsilon, delta, passes, clip, residualClip, stepScale, scaleByBounds,
        accountant, adaptiveClip, expectedBatch, replaceOne, Double.NaN);
  }

  /**
   * The settings of the papers' experiments (bench synthetic data): raw bounds, the papers' closed-form
   * accountant, a fixed clip, DP-SGD batches of 10.
   */
  public ErmSettings(String algorithm, Loss loss, Reg reg, double lambda, double l1Ratio, double epsilon,
      double delta, int passes, double clip, double residualClip, double stepScale) {
    this(algorithm, loss, reg, lambda, l1Ratio, epsilon, delta, passes, clip, residualClip, stepScale, false,
        Accountant.PAPER, false, Double.NaN, false);
  }

  /** The same settings for another algorithm. */
  public ErmSettings withAlgorithm(String value) {
    return new ErmSettings(value, loss, reg, lambda, l1Ratio, epsilon, delta, passes, clip, residualClip, stepScale,
        scaleByBounds, accountant, adaptiveClip, expectedBatch, replaceOne, clipQuantile);
  }

  /** The same settings at another budget epsilon. */
  public ErmSettings withEpsilon(double value) {
    return new ErmSettings(algorithm, loss, reg, lambda, l1Ratio, value, delta, passes, clip, residualClip, stepScale,
        scaleByBounds, accountant, adaptiveClip, expectedBatch, replaceOne, clipQuantile);
  }

  /** The same settings with another regulariser weight. */
  public ErmSettings withLambda(double value) {
    return new ErmSettings(algorithm, loss, reg, value, l1Ratio, epsilon, delta, passes, clip, residualClip, stepScale,
        scaleByBounds, accountant, adaptiveClip, expectedBatch, replaceOne, clipQuantile);
  }

  /** The same settings with another target quantile of DP-SGD's adaptive clipping (NaN: the default). */
  public ErmSettings withClipQuantile(double value) {
    return new ErmSettings(algorithm, loss, reg, lambda, l1Ratio, epsilon, delta, passes, clip, residualClip, stepScale,
        scaleByBounds, accountant, adaptiveClip, expectedBatch, replaceOne, value);
  }

  /** How (epsilon, delta) becomes the noise of the zCDP-accounted algorithms. */
  public enum Accountant {
    /** The tight conversion of Canonne, Kamath and Steinke 2020: valid for every epsilon &gt; 0, least noise. */
    TIGHT(ZcdpRule.TIGHT),
    /** The papers' closed form z^2 = 3 m ln(1/delta) / epsilon^2: proved only for epsilon &lt;= 1. */
    PAPER(ZcdpRule.PAPER_CLOSED_FORM);

    private final ZcdpRule zcdpRule;

    Accountant(ZcdpRule zcdpRule) {
      this.zcdpRule = zcdpRule;
    }

    /** The core's calibration rule of this choice. */
    public ZcdpRule zcdpRule() {
      return zcdpRule;
    }

    public String cliName() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Accountant parse(String text) {
      return switch (text.strip().toLowerCase(Locale.ROOT)) {
        case "tight" -> TIGHT;
        case "paper" -> PAPER;
        default -> throw new IllegalArgumentException("unknown accountant '" + text + "'; expected tight or paper");
      };
    }
  }

  /** The data-fit losses. */
  public enum Loss {
    /** log(1 + e^s) - y s with labels in {0, 1} (files may use {-1, +1}). */
    LOGISTIC,
    /** (s - y)^2 / 2. */
    SQUARED;

    public String cliName() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Loss parse(String text) {
      return switch (text.strip().toLowerCase(Locale.ROOT)) {
        case "logistic" -> LOGISTIC;
        case "squared", "square", "least-squares" -> SQUARED;
        default -> throw new IllegalArgumentException("unknown loss '" + text + "'; expected logistic or squared");
      };
    }
  }

  /** The regularisers. */
  public enum Reg {
    NONE, L2, L1, ELASTIC_NET;

    public String cliName() {
      return this == ELASTIC_NET ? "elastic-net" : name().toLowerCase(Locale.ROOT);
    }

    public static Reg parse(String text) {
      return switch (text.strip().toLowerCase(Locale.ROOT)) {
        case "none" -> NONE;
        case "l2" -> L2;
        case "l1" -> L1;
        case "elastic-net", "elasticnet" -> ELASTIC_NET;
        default -> throw new IllegalArgumentException(
            "unknown regulariser '" + text + "'; expected none, l2, l1 or elastic-net");
      };
    }
  }
}
