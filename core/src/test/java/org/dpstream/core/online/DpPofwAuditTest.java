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
 * The empirical audit on DP-POFW with {@code noise: discrete} (the exact exponential mechanism on lattice scores):
 * streams of 8 samples that differ in the first one, an ordinary sample on D and one 50 times outside the data
 * bounds on D'. The audited output is the first coordinate of the released parameters after the 8 steps, a
 * function of the 8 vertex choices (each of which depends on sample 1 through the lattice sums).
 *
 * <p>The negative control computes lambda for a lattice bound 1000 times smaller than the clamp the increments
 * are held to (a sensitivity miscomputed by 1000): the audit must catch it. alpha = 1e-3 (a correct mechanism
 * fails with probability at most 1e-3 on a fresh seed; seeds are fixed, so the test is deterministic).
 */
class DpPofwAuditTest {

  private static final int STEPS = 8;
  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-5);
  private static final OnlineModelSpec CALIBRATED = OnlineModelSpec.withDerivedClipping("audit", 2, GlmLoss.squared(),
      LpBall.of(1, 1), BUDGET, STEPS, new DataBounds(1, 1), AccountantChoice.ZCDP).withNoise(NoiseChoice.DISCRETE);
  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(405));
  private static final int RUNS_PER_INPUT = 50_000;

  private static final double[] ORDINARY_X = {1, 0};
  private static final double ORDINARY_Y = 1;
  private static final double[] OVERSIZED_X = {50, 0};
  private static final double OVERSIZED_Y = -50;

  private static AuditedMechanism dpPofw(ExactVertexChoice choice) {
    return (neighbour, rng) -> {
      // A fresh noise stream per run: the model id names the stream.
      OnlineModelSpec spec = new OnlineModelSpec(Long.toHexString(rng.nextLong()), 2, CALIBRATED.loss(),
          CALIBRATED.domain(), BUDGET, STEPS, CALIBRATED.clipBounds(), AccountantChoice.ZCDP, CALIBRATED.data(),
          IncrementClipping.WORST_CASE, 1, NoiseChoice.DISCRETE);
      DpPofw estimator = DpPofw.start(spec, VertexChoice.of(spec), choice, SOURCE);
      for (int t = 1; t <= STEPS; t++) {
        if (t == 1) {
          estimator.step(neighbour ? OVERSIZED_X : ORDINARY_X, neighbour ? OVERSIZED_Y : ORDINARY_Y);
        } else {
          estimator.step(new double[] {0.3, -0.4}, 0.2);
        }
      }
      return estimator.parameters()[0];
    };
  }

  private static AuditResult audit(ExactVertexChoice choice, long seed) {
    return PrivacyAuditor.of(1e-3, BUDGET.delta())
        .audit(dpPofw(choice), RUNS_PER_INPUT, RandomSource.XO_RO_SHI_RO_128_PP.create(seed));
  }

  @Test
  void theFixedPointVertexChoicePassesTheAudit() {
    AuditResult result = audit(ExactVertexChoice.of(CALIBRATED), 1L);
    System.out.println("DP-POFW, fixed-point vertex choice: " + result);
    result.assertAtMost(BUDGET.epsilon());
  }

  @Test
  void lambdaCalibratedForAThousandTimesTooSmallASensitivityIsCaught() {
    ExactVertexChoice calibrated = ExactVertexChoice.of(CALIBRATED);
    PofwScoreLattice lattice = calibrated.lattice();
    ExactVertexChoice broken = new ExactVertexChoice(calibrated.calibration(),
        new PofwScoreLattice(lattice.exponent(), lattice.bound() / 1000));
    AuditResult result = audit(broken, 2L);
    System.out.println("DP-POFW, lambda for a thousandth of the sensitivity: " + result);
    assertThrows(AssertionError.class, () -> result.assertAtMost(BUDGET.epsilon()), result.toString());
  }
}
