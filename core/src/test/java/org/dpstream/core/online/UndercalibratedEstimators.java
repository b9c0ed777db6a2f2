package org.dpstream.core.online;

import java.io.DataInput;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKeyRing;

/**
 * The negative control of the one-run audits: DP-TOFW that clips each increment to the spec's whole-increment threshold
 * C but draws the noise a spec clipped at {@code factor} C would draw, i.e. noise calibrated for {@code factor} times
 * the sensitivity. Test code only (core's test-jar): no production config can reach it.
 */
public final class UndercalibratedEstimators implements EstimatorFactory {

  private final double factor;

  private UndercalibratedEstimators(double factor) {
    if (!(factor > 0 && factor < 1)) {
      throw new IllegalArgumentException("an undercalibration factor is in (0, 1): " + factor);
    }
    this.factor = factor;
  }

  /** Noise for {@code factor} times the sensitivity of the spec's fixed whole-increment clipping. */
  public static EstimatorFactory forSensitivityTimes(double factor) {
    return new UndercalibratedEstimators(factor);
  }

  /** The prefix-sum plan whose noise the control draws for a model of {@code spec}. */
  static PrefixSumPlan planOf(OnlineModelSpec spec, double factor) {
    IncrementClipping clipping = spec.incrementClipping();
    if (!clipping.isWhole() || !(spec.p() > 1)) {
      throw new IllegalArgumentException("the control needs DP-TOFW with clip.mode: fixed, got " + clipping.mode()
          + " at p = " + spec.p());
    }
    return PrefixSumPlan.choose(spec.withIncrementClipping(IncrementClipping.fixed(factor * clipping.threshold())));
  }

  /**
   * The per-coordinate sigma of one tree node of a model of {@code spec} whose noise is calibrated for {@code factor}
   * times its sensitivity (1: the model itself), for the audits' predictions.
   */
  public static double treeNodeSigma(OnlineModelSpec spec, double factor) {
    return nodeSigma(factor == 1 ? PrefixSumPlan.choose(spec) : planOf(spec, factor));
  }

  /** The per-coordinate sigma of one node of a zCDP tree plan. */
  public static double nodeSigma(PrefixSumPlan plan) {
    if (!(plan instanceof TreeNoisePlan tree)) {
      throw new IllegalArgumentException("not a tree: " + plan.describe());
    }
    return Math.sqrt(tree.incrementNoiseVariance(0, 1));
  }

  @Override
  public OnlineEstimator start(OnlineModelSpec spec, KeyedNoiseSource source) {
    return DpTofw.start(spec, planOf(spec, factor), source);
  }

  @Override
  public OnlineEstimator restore(OnlineModelSpec spec, DataInput in, NoiseKeyRing keys) {
    throw new UnsupportedOperationException("the undercalibrated control keeps its model loaded; it never restores");
  }
}
