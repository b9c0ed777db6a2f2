package org.dpstream.core.online;

import org.dpstream.core.geometry.LpNorm;
import java.io.DataInput;
import java.io.IOException;
import org.dpstream.core.privacy.PrivatePrefixSums;
import org.dpstream.core.privacy.accounting.PrivacyCalibration;
import org.dpstream.core.privacy.accounting.Rounding;
import org.dpstream.core.privacy.accounting.ZcdpBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.state.NoiseLaw;

/**
 * How DP-TOFW releases the prefix sums of its increments: the mechanism, its noise and the
 * calibration that says what every release costs. Chosen from the spec's {@link AccountantChoice}.
 */
public sealed interface PrefixSumPlan permits TreeNoisePlan, FactorizationPlan, BltPlan, ExactBltPlan, AdaptiveClipPlan {

  PrivacyCalibration calibration();

  /** The name releases carry, e.g. {@code zcdp-cks20/gaussian(d=5, sigma=12.7)}. */
  String describe();

  /**
   * The norm the noise is calibrated in, in which whole-increment clipping clips: l2 for Gaussian noise,
   * the dual norm q for the paper's generalized Gaussian.
   */
  LpNorm clipNorm();

  /** A fresh mechanism whose noise is keyed by the model id. */
  PrivatePrefixSums start(OnlineModelSpec spec, KeyedNoiseSource source);

  /**
   * The digest of this plan's noise law for {@code spec} ({@link NoiseLaw}): its calibrated scale (exact bits),
   * sampler, coefficients, and known answers of its mechanism. A state written under another law is refused.
   */
  byte[] noiseLaw(OnlineModelSpec spec);

  /**
   * Adds the known answers of a mechanism to {@code law}: its first three releases on zero leaves, {@code probe}
   * being the mechanism started on {@link NoiseLaw#probeSource()}.
   */
  static NoiseLaw withKnownAnswers(NoiseLaw law, PrivatePrefixSums probe, int dimension) {
    double[] zero = new double[dimension];
    double[] release = new double[dimension];
    for (int t = 1; t <= 3; t++) {
      probe.addAndRelease(zero, release);
      law.numbers("release " + t, release);
    }
    return law;
  }

  /** The mechanism of a snapshot written by {@link PrivatePrefixSums#writeTo}. */
  PrivatePrefixSums restore(OnlineModelSpec spec, DataInput in, KeyedNoiseSource source) throws IOException;

  /**
   * The plan of the spec's accountant. AUTO takes the BLT where its predicted worst-release error beats the better
   * tree's: the continuous BLT ({@link BltPlan#orTree}) or, with discrete noise, the exact BLT against the zCDP tree
   * ({@link ExactBltPlan#orTree}). BLT with discrete noise is the exact BLT.
   *
   * <p>Built once per spec ({@link ChosenPlans}): starting and restoring a model, and a validation that asks for
   * its plan, take the same one.
   */
  static PrefixSumPlan choose(OnlineModelSpec spec) {
    return ChosenPlans.of(spec, PrefixSumPlan::build);
  }

  /**
   * Keeps at most {@code plans} chosen plans in memory ({@value ChosenPlans#DEFAULT_CAPACITY} by default): an
   * instance sizes it to the models it serves, so that reloading a model never calibrates its plan again.
   */
  static void keepAtMost(int plans) {
    ChosenPlans.keepAtMost(plans);
  }

  private static PrefixSumPlan build(OnlineModelSpec spec) {
    if (spec.incrementClipping().isAdaptive()) {
      return AdaptiveClipPlan.of(spec); // blocks of the plan the accountant chooses, each at its own threshold
    }
    if (spec.accountant() == AccountantChoice.PAPER) {
      return TreeNoisePlan.choose(spec); // the paper's calibration is not accounted in zCDP
    }
    // The spec's (epsilon, delta) becomes rho here, once; the plan is calibrated in rho.
    return choose(spec, ZcdpBudget.of(spec.budget()));
  }

  /** The plan of the spec's accountant calibrated for a zCDP budget (adaptive clipping's blocks: theirs). */
  static PrefixSumPlan choose(OnlineModelSpec spec, ZcdpBudget budget) {
    return switch (spec.accountant()) {
      case FACTORIZATION -> FactorizationPlan.of(spec, budget);
      case BLT -> spec.noise() == NoiseChoice.CONTINUOUS ? BltPlan.of(spec, budget) : ExactBltPlan.of(spec, budget);
      case AUTO -> spec.noise() == NoiseChoice.CONTINUOUS
          ? BltPlan.orTree(spec, budget)
          : ExactBltPlan.orTree(spec, budget);
      case PAPER, ZCDP -> TreeNoisePlan.choose(spec, budget);
    };
  }

  /**
   * The l2 sensitivity of one clipped increment between neighbours (replace one sample): twice its l2
   * bound plus {@code slack} for any rounding of the leaf. Whole-increment clipping clips in l2 for the
   * Gaussian mechanisms, so the bound is C; the worst case bounds the dual norm q, and ||v||_2 <= d^(1/2 -
   * 1/q) ||v||_q for q > 2 and <= ||v||_q otherwise.
   */
  static double l2LeafSensitivity(OnlineModelSpec spec, double slack) {
    int d = spec.dimension();
    double q = LpNorm.dualExponent(spec.p());
    double qToL2 = q > 2 && !spec.incrementClipping().isWhole() ? Math.nextUp(Math.pow(d, 0.5 - 1 / q)) : 1.0;
    double leaf = Math.nextUp(Math.nextUp(qToL2 * TreeNoisePlan.incrementBound(spec)) + slack);
    return Math.nextUp(2 * leaf);
  }

  /**
   * The l2 sensitivity of a person's up to k clipped increments (k = {@link OnlineModelSpec#participations}) as one
   * leaf of a Toeplitz strategy's map (the square root, the BLT): k times one sample's. Replacing k leaves moves
   * C x by sum_i C e_i (x_i - x_i'), whose norm over any rows is at most sum_i ||C e_i|| ||x_i - x_i'|| &lt;= k S
   * sqrt(Phi) by the triangle inequality, every column cut to the rows being at most sqrt(Phi). For the square
   * root and the BLT, whose columns are shifts of one slowly decaying column, consecutive participations are
   * close to parallel, so the bound is nearly attained unless a minimum separation is enforced (it is not).
   * A person whose k samples fall in several epochs or blocks, each calibrated for k, costs sum (k_b / k)^2 &lt;= 1
   * of one calibration in all.
   */
  static double l2PersonSensitivity(OnlineModelSpec spec, double slack) {
    double sample = l2LeafSensitivity(spec, slack);
    return spec.participations() == 1 ? sample : Rounding.productUp(spec.participations(), sample);
  }
}
