package org.dpstream.core.privacy.factorization;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.audit.AuditResult;
import org.dpstream.core.privacy.audit.AuditedMechanism;
import org.dpstream.core.privacy.audit.PrivacyAuditor;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseStream;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

/**
 * The empirical audit (see {@code TreeMechanismAuditTest}) on the calibrated square-root mechanism, keyed
 * noise and zCDP calibration included.
 *
 * <p>Neighbouring streams of n = 8 one-dimensional leaves differ in leaf 1 (replacement: +S vs -S after
 * clipping to S, so the leaf's l2 sensitivity is 2S, as calibrated). The releases are y = C (C x + z), so
 * w = C^{-1} y = C x + z (forward substitution) and the neighbours' w differ by 2S C e_1, which is nonzero in
 * every released row. The projection &lt;w, C e_1&gt; is then the likelihood-ratio statistic: its mean moves by
 * 2S ||C e_1||^2 with standard deviation sigma ||C e_1||, exactly the Gaussian mechanism the accountant
 * charges, so the audit is as strong as this pair of inputs allows.
 *
 * <p>alpha = 1e-3: a correct mechanism fails with probability at most 1e-3 on a fresh seed; the seeds are
 * fixed, so the test is deterministic.
 */
class SqrtFactorizationAuditTest {

  private static final int HORIZON = 8;
  private static final double CLIP = 1.0;
  private static final PrivacyBudget BUDGET = new PrivacyBudget(1.0, 1e-5);
  private static final SqrtFactorizationCalibration CALIBRATION =
      SqrtFactorizationCalibration.of(BUDGET, HORIZON, 2 * CLIP);
  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(6));
  private static final double[] R = PrefixSumSquareRoot.coefficients(HORIZON);
  private static final int RUNS_PER_INPUT = 200_000;

  /** A user whose contribution is 5 times the calibrated sensitivity. */
  private static final double OVERSIZED = 5 * CLIP;

  private static AuditedMechanism sqrtOnNeighbours(boolean clipLeaves) {
    return (neighbour, rng) -> {
      // A fresh stream per run: independent noise, drawn exactly as in production.
      NoiseStream bits = SOURCE.forStream(SqrtFactorizationPrefixSum.NOISE_PURPOSE, Long.toHexString(rng.nextLong()));
      SqrtFactorizationPrefixSum mechanism = SqrtFactorizationPrefixSum.start(1, CALIBRATION, bits);
      double first = neighbour ? -OVERSIZED : OVERSIZED;
      if (clipLeaves) {
        first = Math.max(-CLIP, Math.min(CLIP, first));
      }
      double[] release = new double[1];
      double[] whitened = new double[HORIZON + 1]; // w_t = y_t - sum_{i<t} r_{t-i} w_i
      double statistic = 0;
      for (int t = 1; t <= HORIZON; t++) {
        double leaf = t == 1 ? first : 0.25 * t;
        mechanism.addAndRelease(new double[] {leaf}, release);
        double w = release[0];
        for (int i = 1; i < t; i++) {
          w -= R[t - i] * whitened[i];
        }
        whitened[t] = w;
        statistic += R[t - 1] * w;
      }
      return statistic;
    };
  }

  private static AuditResult audit(boolean clipLeaves, long seed) {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    return PrivacyAuditor.of(1e-3, BUDGET.delta()).audit(sqrtOnNeighbours(clipLeaves), RUNS_PER_INPUT, rng);
  }

  @Test
  void calibratedMechanismWithClippingPassesTheAudit(TestReporter reporter) {
    AuditResult result = audit(true, 61L);
    reporter.publishEntry("audit", result.toString());
    result.assertAtMost(BUDGET.epsilon());
    // Sanity that the audit looked at something: the bound is not vacuous.
    assertTrue(result.epsilonLowerBound() > 0.2, result.toString());
  }

  @Test
  void fiveTimesTheCalibratedSensitivityIsCaught(TestReporter reporter) {
    AuditResult result = audit(false, 62L);
    reporter.publishEntry("audit", result.toString());
    assertThrows(AssertionError.class, () -> result.assertAtMost(BUDGET.epsilon()), result.toString());
  }
}
