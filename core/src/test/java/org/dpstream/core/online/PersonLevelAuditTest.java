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
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseStream;
import org.dpstream.core.privacy.testing.TestKeys;
import org.dpstream.core.privacy.tree.DiscreteGaussianNodeNoise;
import org.dpstream.core.privacy.tree.Lattice;
import org.dpstream.core.privacy.tree.NodeNoise;
import org.junit.jupiter.api.Test;

/**
 * The empirical audit at person level: streams of 16 samples whose first K = 8 are one person's. On D that person's
 * samples are ordinary; on D' all K are 50 times outside the bounds, of the opposite label. Whole-increment clipping
 * at C = 0.5 holds both to C, in opposite directions, so each of the person's leaves moves by the full 2C the noise
 * is calibrated for (the worst case would leave the difference at a quarter of its bound). The audited statistic is the noisy
 * prefix sums (t + 1) d_t at t = K and t = 16, the two nodes that hold every one of the person's samples, projected on
 * the direction in which the increments differ: the person's K leaves add up there, the worst case for the tree
 * (an aligned block fills every level, docs/privacy-layer.md, "Person-level privacy").
 *
 * <p>Calibrated for K participations (the spec's), the estimate stays below the claimed epsilon. The negative control
 * runs the same neighbours on the plan of the event-level spec, i.e. accounting as if k = 1: the audit must catch it.
 * Discrete node noise, the default of a zCDP model. alpha = 1e-3; seeds are fixed, so the test is deterministic.
 */
class PersonLevelAuditTest {

  private static final int STEPS = 16;
  private static final int K = 8;
  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-5);
  private static final OnlineModelSpec EVENT = OnlineModelSpec.withDerivedClipping("person-audit", 2, GlmLoss.squared(),
      LpBall.of(2, 1), BUDGET, STEPS, new DataBounds(1, 1), AccountantChoice.ZCDP).withNoise(NoiseChoice.DISCRETE)
      .withIncrementClipping(IncrementClipping.fixed(0.5));
  private static final OnlineModelSpec PERSON = EVENT.withParticipations(K);
  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(808));
  private static final int RUNS_PER_INPUT = 100_000;

  private static final double[] ORDINARY_X = {1, 0};
  private static final double ORDINARY_Y = 1;
  private static final double[] OVERSIZED_X = {50, 0};
  private static final double OVERSIZED_Y = -50;

  /** The person's K samples, then others', on the node noise of {@code plan}. */
  private static AuditedMechanism dpTofw(TreeNoisePlan plan) {
    return (neighbour, rng) -> {
      NoiseStream bits = SOURCE.forStream("tree", Long.toHexString(rng.nextLong()));
      Lattice lattice = TreeNoisePlan.latticeFor(PERSON);
      NodeNoise noise = DiscreteGaussianNodeNoise.onLattice(bits, 2, ((IidVectorNoise) plan.noise()).scale(), lattice);
      DpTofw estimator = DpTofw.start(PERSON, plan, plan.withNodeNoise(PERSON, noise));
      double statistic = 0;
      for (int t = 1; t <= STEPS; t++) {
        if (t <= K) {
          estimator.step(neighbour ? OVERSIZED_X : ORDINARY_X, neighbour ? OVERSIZED_Y : ORDINARY_Y);
        } else {
          estimator.step(new double[] {0.3, -0.4}, 0.2);
        }
        if (t == K || t == STEPS) {
          statistic += (t + 1) * estimator.lastDirection()[0];
        }
      }
      return statistic;
    };
  }

  private static AuditResult audit(TreeNoisePlan plan, long seed) {
    return PrivacyAuditor.of(1e-3, BUDGET.delta())
        .audit(dpTofw(plan), RUNS_PER_INPUT, RandomSource.XO_RO_SHI_RO_128_PP.create(seed));
  }

  @Test
  void aPersonsKSamplesPassTheAuditWhenAccountedForK() {
    AuditResult result = audit(TreeNoisePlan.choose(PERSON), 11L);
    result.assertAtMost(BUDGET.epsilon());
  }

  @Test
  void accountingAsIfKWereOneIsCaught() {
    AuditResult result = audit(TreeNoisePlan.choose(EVENT), 12L);
    assertThrows(AssertionError.class, () -> result.assertAtMost(BUDGET.epsilon()), result.toString());
  }
}
