package org.dpstream.core.privacy.factorization;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.privacy.accounting.GaussianZcdpMap;
import org.dpstream.core.privacy.accounting.SensitivityStructure;
import org.dpstream.core.privacy.accounting.ZcdpBudget;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.ZcdpConversion;
import org.dpstream.core.privacy.audit.AuditResult;
import org.dpstream.core.privacy.audit.AuditedMechanism;
import org.dpstream.core.privacy.audit.PrivacyAuditor;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseStream;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

/**
 * The empirical audit (see {@code TreeMechanismAuditTest}) on the calibrated BLT mechanism, keyed noise, optimised
 * parameters and zCDP calibration included.
 *
 * <p>Neighbouring streams of n = 8 one-dimensional leaves differ in leaf 1 (replacement: +S vs -S after clipping
 * to S, so the leaf's l2 sensitivity is 2S, as calibrated). The releases are y = A C^{-1} (C x + z), so the first
 * differences v = A^{-1} y = C^{-1}(C x + z) and u = C v = C x + z (C applied with its Toeplitz coefficients); the
 * neighbours' u differ by 2S C e_1. The projection &lt;u, C e_1&gt; is the likelihood-ratio statistic: its mean moves
 * by 2S ||C e_1||^2 with standard deviation sigma ||C e_1||, exactly the Gaussian mechanism the accountant charges.
 *
 * <p>alpha = 1e-3: a correct mechanism fails with probability at most 1e-3 on a fresh seed; the seeds are fixed,
 * so the test is deterministic.
 */
class BltAuditTest {

  private static final int HORIZON = 8;
  private static final double CLIP = 1.0;
  private static final PrivacyBudget BUDGET = new PrivacyBudget(1.0, 1e-5);
  private static final BltStrategy STRATEGY = BltOptimizer.forHorizon(HORIZON);
  private static final GaussianZcdpMap CALIBRATION = GaussianZcdpMap.calibrate("zcdp-cks20-blt", ZcdpBudget.of(BUDGET, ZcdpConversion.TIGHT), 2 * CLIP,
        SensitivityStructure.toeplitz(HORIZON, STRATEGY::squaredColumnNormUpperBounds));
  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(8));
  private static final double[] C = STRATEGY.coefficients(HORIZON);
  private static final int RUNS_PER_INPUT = 200_000;

  /** A user whose contribution is 5 times the calibrated sensitivity. */
  private static final double OVERSIZED = 5 * CLIP;

  private static AuditedMechanism bltOnNeighbours(boolean clipLeaves) {
    return (neighbour, rng) -> {
      NoiseStream bits = SOURCE.forStream(BltPrefixSum.NOISE_PURPOSE, Long.toHexString(rng.nextLong()));
      BltPrefixSum mechanism = BltPrefixSum.start(1, STRATEGY, CALIBRATION, bits);
      double first = neighbour ? -OVERSIZED : OVERSIZED;
      if (clipLeaves) {
        first = Math.max(-CLIP, Math.min(CLIP, first));
      }
      double[] release = new double[1];
      double previous = 0;
      double[] differences = new double[HORIZON + 1];
      double statistic = 0;
      for (int t = 1; t <= HORIZON; t++) {
        double leaf = t == 1 ? first : 0.25 * t;
        mechanism.addAndRelease(new double[] {leaf}, release);
        differences[t] = release[0] - previous;
        previous = release[0];
        double u = 0;
        for (int s = 1; s <= t; s++) {
          u += C[t - s] * differences[s];
        }
        statistic += C[t - 1] * u;
      }
      return statistic;
    };
  }

  private static AuditResult audit(boolean clipLeaves, long seed) {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    return PrivacyAuditor.of(1e-3, BUDGET.delta()).audit(bltOnNeighbours(clipLeaves), RUNS_PER_INPUT, rng);
  }

  @Test
  void calibratedMechanismWithClippingPassesTheAudit(TestReporter reporter) {
    AuditResult result = audit(true, 81L);
    reporter.publishEntry("audit", result.toString());
    result.assertAtMost(BUDGET.epsilon());
    assertTrue(result.epsilonLowerBound() > 0.2, result.toString());
  }

  @Test
  void fiveTimesTheCalibratedSensitivityIsCaught(TestReporter reporter) {
    AuditResult result = audit(false, 82L);
    reporter.publishEntry("audit", result.toString());
    assertThrows(AssertionError.class, () -> result.assertAtMost(BUDGET.epsilon()), result.toString());
  }
}
