package org.dpstream.bandit.linear;

import org.dpstream.core.online.PrefixSumPlan;
import org.dpstream.core.online.UndercalibratedEstimators;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/**
 * The negative control of the bandit's one-run audit: DP-Linear that clips contexts and rewards to its spec's c and B
 * but draws the noise of a spec whose sensitivity is {@code factor} times smaller. With B = c a user's l2 sensitivity
 * is proportional to c^2 (docs/bandit-privacy.md, "What one user changes"), so the noise is that of c' = B' = c
 * sqrt(factor). Test code only (the bandit's test-jar): no production config can reach it.
 */
public final class UndercalibratedDpLinear {

  private UndercalibratedDpLinear() {}

  /** The plan of a DP-Linear spec whose sensitivity is {@code factor} times {@code spec}'s. */
  public static PrefixSumPlan planFor(DpLinearSpec spec, double factor) {
    if (spec.contextClip() != spec.rewardClip()) {
      throw new IllegalArgumentException("the control scales the sensitivity by scaling c = B together: c = "
          + spec.contextClip() + ", B = " + spec.rewardClip());
    }
    if (!(factor > 0 && factor <= 1)) {
      throw new IllegalArgumentException("a calibration factor is in (0, 1]: " + factor);
    }
    double clip = spec.contextClip() * Math.sqrt(factor);
    return new DpLinearSpec(spec.banditId(), spec.dimension(), spec.arms(), clip, clip, spec.budget(), spec.horizon(),
        spec.refreshEvery(), spec.accountant(), spec.noise(), spec.rewardCenter()).plan();
  }

  /** A fresh DP-Linear of {@code spec} whose noise is calibrated for {@code factor} times its sensitivity. */
  public static DpLinearPolicy start(DpLinearSpec spec, KeyedNoiseSource source, double factor) {
    return DpLinearPolicy.start(spec, planFor(spec, factor), source, true);
  }

  /** The per-coordinate sigma of one tree node of that plan (the zCDP tree only). */
  public static double nodeSigma(DpLinearSpec spec, double factor) {
    return UndercalibratedEstimators.nodeSigma(planFor(spec, factor));
  }
}
