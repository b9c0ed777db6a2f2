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
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.random.NoiseStream;
import org.dpstream.core.privacy.tree.DiscreteGaussianNodeNoise;
import org.dpstream.core.privacy.tree.KeyedNodeNoise;
import org.dpstream.core.privacy.tree.Lattice;
import org.dpstream.core.privacy.tree.NodeNoise;
import org.junit.jupiter.api.Test;

/**
 * The empirical audit on DP-TOFW's step sequence: streams of 8 samples that differ in the first one,
 * an ordinary sample on D and a wildly oversized one on D'. The audited output is the noisy prefix sums
 * (t+1) d_t at t = 1, 2, 4, 8 (the nodes holding sample 1), projected on the direction in which the
 * two first samples' increments differ; the released parameters are a function of these d_t.
 *
 * <p>The broken variant clips (the sample and its gradient terms) at 1000 times the bounds the noise
 * was calibrated for: the audit must catch it. Both run with continuous node noise and with the exact
 * discrete Gaussian ({@code noise: discrete}), and again with whole-increment clipping. alpha = 1e-3 (a correct mechanism fails with probability <= 1e-3 on a fresh seed; seeds
 * are fixed, so the test is deterministic).
 */
class DpTofwAuditTest {

  private static final int STEPS = 8;
  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-5);
  private static final LpBall DOMAIN = LpBall.of(2, 1);
  private static final DataBounds BOUNDS = new DataBounds(1, 1);
  private static final OnlineModelSpec CALIBRATED = OnlineModelSpec.withDerivedClipping(
      "audit", 2, GlmLoss.squared(), DOMAIN, BUDGET, STEPS, BOUNDS, AccountantChoice.ZCDP);
  private static final TreeNoisePlan PLAN = TreeNoisePlan.choose(CALIBRATED);
  private static final TreeNoisePlan DISCRETE_PLAN = TreeNoisePlan.choose(CALIBRATED.withNoise(NoiseChoice.DISCRETE));
  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(404));
  private static final int RUNS_PER_INPUT = 100_000;

  /** On D the first sample is within the bounds; on D' it is 50 times outside them. */
  private static final double[] ORDINARY_X = {1, 0};
  private static final double ORDINARY_Y = 1;
  private static final double[] OVERSIZED_X = {50, 0};
  private static final double OVERSIZED_Y = -50;

  private static AuditedMechanism dpTofw(OnlineModelSpec clipping, TreeNoisePlan plan) {
    return (neighbour, rng) -> {
      // The estimator rounds on the lattice of its own spec; the noise must use that lattice too.
      NoiseStream bits = SOURCE.forStream("tree", Long.toHexString(rng.nextLong()));
      Lattice lattice = TreeNoisePlan.latticeFor(clipping);
      NodeNoise noise = plan.sampling() == NoiseChoice.DISCRETE
          ? DiscreteGaussianNodeNoise.onLattice(bits, 2, ((IidVectorNoise) plan.noise()).scale(), lattice)
          : new KeyedNodeNoise(bits, plan.noise(), lattice);
      DpTofw estimator = DpTofw.start(clipping, plan, plan.withNodeNoise(clipping, noise));
      double statistic = 0;
      for (int t = 1; t <= STEPS; t++) {
        if (t == 1) {
          estimator.step(neighbour ? OVERSIZED_X : ORDINARY_X, neighbour ? OVERSIZED_Y : ORDINARY_Y);
        } else {
          estimator.step(new double[] {0.3, -0.4}, 0.2);
        }
        if (Integer.bitCount(t) == 1) {
          // The first coordinate is where the two first samples' gradients differ.
          statistic += (t + 1) * estimator.lastDirection()[0];
        }
      }
      return statistic;
    };
  }

  private static AuditResult audit(OnlineModelSpec clipping, TreeNoisePlan plan, long seed) {
    return PrivacyAuditor.of(1e-3, BUDGET.delta())
        .audit(dpTofw(clipping, plan), RUNS_PER_INPUT, RandomSource.XO_RO_SHI_RO_128_PP.create(seed));
  }

  private static OnlineModelSpec unclipped() {
    ClipBounds loose = new ClipBounds(
        1000 * CALIBRATED.clipBounds().gradient(), 1000 * CALIBRATED.clipBounds().difference());
    // The data bounds are widened with the clip bounds, else clipping the sample itself would hide the bug.
    return new OnlineModelSpec("audit", 2, GlmLoss.squared(), DOMAIN, BUDGET, STEPS, loose, AccountantChoice.ZCDP,
        new DataBounds(1000, 1000));
  }

  @Test
  void clippedStepsPassTheAudit() {
    AuditResult result = audit(CALIBRATED, PLAN, 1L);
    result.assertAtMost(BUDGET.epsilon());
  }

  @Test
  void clippingFarAboveTheCalibratedBoundsIsCaught() {
    AuditResult result = audit(unclipped(), PLAN, 2L);
    assertThrows(AssertionError.class, () -> result.assertAtMost(BUDGET.epsilon()), result.toString());
  }

  @Test
  void clippedStepsWithDiscreteNoisePassTheAudit() {
    AuditResult result = audit(CALIBRATED, DISCRETE_PLAN, 3L);
    result.assertAtMost(BUDGET.epsilon());
  }

  @Test
  void clippingFarAboveTheCalibratedBoundsIsCaughtWithDiscreteNoise() {
    AuditResult result = audit(unclipped().withNoise(NoiseChoice.DISCRETE), DISCRETE_PLAN, 4L);
    assertThrows(AssertionError.class, () -> result.assertAtMost(BUDGET.epsilon()), result.toString());
  }

  /** Whole-increment clipping at C = 0.5 with noise for sensitivity 2C: the oversized sample is held to C. */
  private static final OnlineModelSpec WHOLE = CALIBRATED.withIncrementClipping(IncrementClipping.fixed(0.5));

  @Test
  void wholeIncrementClippingPassesTheAudit() {
    AuditResult result = audit(WHOLE, TreeNoisePlan.choose(WHOLE), 5L);
    result.assertAtMost(BUDGET.epsilon());
  }

  @Test
  void wholeIncrementClippingAboveTheThresholdTheNoiseWasCalibratedForIsCaught() {
    OnlineModelSpec loose = unclipped().withIncrementClipping(IncrementClipping.fixed(500));
    AuditResult result = audit(loose, TreeNoisePlan.choose(WHOLE), 6L);
    assertThrows(AssertionError.class, () -> result.assertAtMost(BUDGET.epsilon()), result.toString());
  }
}
