package org.dpstream.core.online;

import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.geometry.LpBall;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.audit.AuditResult;
import org.dpstream.core.privacy.audit.AuditedMechanism;
import org.dpstream.core.privacy.audit.PrivacyAuditor;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;

/**
 * The empirical audit on DP-TOFW with adaptive clipping, horizon 8: blocks [2, 4, 8], the first two steps the
 * warm-up (histogram only), then one mechanism for the epoch's six remaining steps (block 1 = steps 3 and 4, its
 * first two leaves).
 *
 * <ul>
 *   <li>The quantile: D and D' differ in the first sample (warm-up), small on D (increment norm 0.01), 50
 *       times outside the data bounds on D' (norm 1 once clipped to them). The statistic is ln C_1, the threshold the released histogram gives. With the
 *       histogram's noise it passes; without it (negative control) C_1 is a deterministic function of the
 *       differing sample and the audit catches it.
 *   <li>The blocks: D and D' differ in the third sample, the first of block 1. The statistic is the first
 *       coordinate of the released prefix sums at steps 3 and 4 (the leaf and the root holding it). Calibrated
 *       to 2 C_1 it passes; with each block's noise calibrated to a thousandth of the threshold it clips to
 *       (negative control) it is caught.
 * </ul>
 *
 * alpha = 1e-3 (a correct mechanism fails with probability &lt;= 1e-3 on a fresh seed; seeds are fixed, so the
 * test is deterministic).
 */
class AdaptiveClipAuditTest {

  private static final int STEPS = 8;
  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-5);
  private static final OnlineModelSpec SPEC = OnlineModelSpec.withDerivedClipping("audit", 2, GlmLoss.squared(),
      LpBall.of(2, 1), BUDGET, STEPS, new DataBounds(1, 1), AccountantChoice.ZCDP)
      .withIncrementClipping(IncrementClipping.ADAPTIVE);
  private static final int RUNS_PER_INPUT = 100_000;

  private static final double[] ORDINARY_X = {1, 0};
  private static final double ORDINARY_Y = 1;
  /**
   * In the warm-up (theta = 0) the increment is -y x: the ordinary sample above and the oversized one (clipped
   * to the bounds, (1, 0) and -1) have the same norm, so the quantile's test uses a small sample on D.
   */
  private static final double[] SMALL_X = {0.1, 0};
  private static final double SMALL_Y = 0.1;
  private static final double[] OVERSIZED_X = {50, 0};
  private static final double OVERSIZED_Y = -50;
  private static final double[] OTHER_X = {0.3, -0.4};
  private static final double OTHER_Y = 0.2;

  /** The default: every noise exact (tree node noise and histogram bins). */
  private static final OnlineModelSpec DISCRETE_SPEC = SPEC.withNoise(NoiseChoice.DISCRETE);

  /** The model on D or D' (differing at {@code differing}, 1-based), reduced to a statistic. */
  private static AuditedMechanism adaptive(AdaptiveClipPlan plan, int differing, boolean thresholdStatistic) {
    return (neighbour, rng) -> {
      KeyedNoiseSource source = new KeyedNoiseSource(TestKeys.seeded(rng.nextLong()));
      OnlineModelSpec spec = plan.spec();
      DpTofw model = DpTofw.start(spec, plan, plan.start(spec, source));
      double statistic = 0;
      for (int t = 1; t <= STEPS; t++) {
        if (t == differing && neighbour) {
          model.step(OVERSIZED_X, OVERSIZED_Y);
        } else if (t == differing && thresholdStatistic) {
          model.step(SMALL_X, SMALL_Y);
        } else if (t == differing) {
          model.step(ORDINARY_X, ORDINARY_Y);
        } else {
          model.step(OTHER_X, OTHER_Y);
        }
        if (thresholdStatistic && t == 2) {
          return Math.log(model.adaptiveThreshold());
        }
        if (t == 3 || t == 4) {
          // k + 1 = t - 1 after the warm-up of two steps: (k + 1) d_k is the released prefix sum.
          statistic += (t - 1) * model.lastDirection()[0];
        }
      }
      return statistic;
    };
  }

  private static AuditResult audit(AuditedMechanism mechanism, long seed) {
    return PrivacyAuditor.of(1e-3, BUDGET.delta())
        .audit(mechanism, RUNS_PER_INPUT, RandomSource.XO_RO_SHI_RO_128_PP.create(seed));
  }

  @Test
  void theThresholdFromTheNoisyHistogramPassesTheAudit() {
    audit(adaptive(AdaptiveClipPlan.of(SPEC), 1, true), 11L).assertAtMost(BUDGET.epsilon());
  }

  @Test
  void theThresholdFromAHistogramWithoutNoiseIsCaught() {
    AuditResult result = audit(adaptive(AdaptiveClipPlan.broken(SPEC, 1, false), 1, true), 12L);
    assertThrows(AssertionError.class, () -> result.assertAtMost(BUDGET.epsilon()), result.toString());
  }

  @Test
  void theEpochMechanismOnNormalisedLeavesPassesTheAudit() {
    audit(adaptive(AdaptiveClipPlan.of(SPEC), 3, false), 13L).assertAtMost(BUDGET.epsilon());
  }

  @Test
  void noiseForAThousandthOfTheLeavesIsCaught() {
    AuditResult result = audit(adaptive(AdaptiveClipPlan.broken(SPEC, 1e-3, true), 3, false), 14L);
    assertThrows(AssertionError.class, () -> result.assertAtMost(BUDGET.epsilon()), result.toString());
  }

  @Test
  void exactNoiseThresholdFromTheDiscreteHistogramPassesTheAudit() {
    audit(adaptive(AdaptiveClipPlan.of(DISCRETE_SPEC), 1, true), 15L).assertAtMost(BUDGET.epsilon());
  }

  @Test
  void exactNoiseTreeOnNormalisedLeavesPassesTheAudit() {
    audit(adaptive(AdaptiveClipPlan.of(DISCRETE_SPEC), 3, false), 16L).assertAtMost(BUDGET.epsilon());
  }

  @Test
  void exactNoiseTreeWithNoiseForAThousandthOfTheLeavesIsCaught() {
    AuditResult result = audit(adaptive(AdaptiveClipPlan.broken(DISCRETE_SPEC, 1e-3, true), 3, false), 17L);
    assertThrows(AssertionError.class, () -> result.assertAtMost(BUDGET.epsilon()), result.toString());
  }

  /** The default: auto with discrete noise, whose epoch mechanism is the exact BLT. */
  private static final OnlineModelSpec DEFAULT_SPEC = OnlineModelSpec.withDerivedClipping("audit", 2, GlmLoss.squared(),
      LpBall.of(2, 1), BUDGET, STEPS, new DataBounds(1, 1), AccountantChoice.AUTO)
      .withIncrementClipping(IncrementClipping.ADAPTIVE).withNoise(NoiseChoice.DISCRETE);

  @Test
  void theDefaultOnTheExactBltPassesTheAudit() {
    org.junit.jupiter.api.Assertions.assertInstanceOf(ExactBltPlan.class,
        AdaptiveClipPlan.of(DEFAULT_SPEC).epoch(0).plan());
    audit(adaptive(AdaptiveClipPlan.of(DEFAULT_SPEC), 3, false), 18L).assertAtMost(BUDGET.epsilon());
  }

  @Test
  void theDefaultWithNoiseForAThousandthOfTheLeavesIsCaught() {
    AuditResult result = audit(adaptive(AdaptiveClipPlan.broken(DEFAULT_SPEC, 1e-3, true), 3, false), 19L);
    assertThrows(AssertionError.class, () -> result.assertAtMost(BUDGET.epsilon()), result.toString());
  }
}
