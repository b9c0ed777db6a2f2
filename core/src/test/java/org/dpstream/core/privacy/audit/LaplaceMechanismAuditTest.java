package org.dpstream.core.privacy.audit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

/**
 * The audit on the Laplace mechanism for a count of records (each record contributes at most 1), with
 * eps = 1, and on two broken variants that the same audit must catch.
 *
 * <p>False failures: the seeds are fixed, so each test is deterministic. With a fresh seed the
 * correct mechanism would fail {@code assertAtMost(1)} with probability at most ALPHA = 1e-3 (the
 * audit's guarantee, exact because Clopper-Pearson is conservative). The other checks are power
 * checks whose failure probabilities are estimated in each test; all are below 1e-6.
 *
 * <p>Choice of N. At a threshold tau >= 1 the ratio P[M(D') > tau] / P[M(D) > tau] is exactly e, and
 * at tau = 1 the probabilities are p' = 1/2 and p = 1/(2e) = 0.184. With n held-out runs per input,
 * sd(ln p-hat) = sqrt((1 - p) / (n p)), i.e. 1/sqrt(n) and 2.11/sqrt(n). Each one-sided bound sits
 * z = 3.29 (level ALPHA / 2 = 5e-4) of those below/above, so eps_lb ~= 1 - 3.29 (1 + 2.11) / sqrt(n)
 * = 1 - 10.2 / sqrt(n): eps_lb > 0.5 needs n > 420, and eps_lb > 0.9 needs n > 10,500. N = 100,000
 * per input leaves n = 75,000, so eps_lb ~= 0.963 with sd ~= sqrt(1 + 2.11^2) / sqrt(n) = 0.0085.
 */
class LaplaceMechanismAuditTest {

  private static final double ALPHA = 1e-3;
  private static final double CLAIMED_EPSILON = 1;
  private static final int RUNS_PER_INPUT = 100_000;
  private static final double CLIP_BOUND = 1;
  private static final double[] COUNT_ON_ORIGINAL = {41};

  private final PrivacyAuditor auditor = PrivacyAuditor.of(ALPHA, 0);

  private AuditResult audit(AuditedVectorMechanism mechanism, double[] addedRecord, long seed,
      TestReporter reporter) {
    AuditResult result = auditor.audit(mechanism.projectedOnto(addedRecord), RUNS_PER_INPUT,
        RandomSource.XO_RO_SHI_RO_128_PP.create(seed));
    reporter.publishEntry("audit", result.toString());
    return result;
  }

  /** Noise for a query of sensitivity CLIP_BOUND, as the mechanism's accounting believes. */
  private static IidVectorNoise calibratedNoise() {
    return IidVectorNoise.laplace(1, CLIP_BOUND / CLAIMED_EPSILON);
  }

  @Test
  void correctMechanismPassesAndTheBoundIsTight(TestReporter reporter) {
    double[] oneRecord = {1};
    AuditResult result = audit(
        NoisyClippedSum.clipping(COUNT_ON_ORIGINAL, oneRecord, CLIP_BOUND, calibratedNoise()),
        oneRecord, 20240611L, reporter);

    result.assertAtMost(CLAIMED_EPSILON);
    // Sensitivity of the audit itself: 0.9 is 7 sd below the expected 0.963 (see class comment).
    assertTrue(result.epsilonLowerBound() > 0.9, result::toString);
  }

  /** The oversized record of the next-but-one test, clipped as it should be: the audit passes. */
  @Test
  void clippedOversizedRecordPasses(TestReporter reporter) {
    double[] oversized = {5 * CLIP_BOUND};
    AuditResult result = audit(
        NoisyClippedSum.clipping(COUNT_ON_ORIGINAL, oversized, CLIP_BOUND, calibratedNoise()),
        oversized, 20240614L, reporter);

    result.assertAtMost(CLAIMED_EPSILON);
  }

  /**
   * A record counted twice: the true difference is 2 while the noise assumes 1, so the mechanism is
   * only 2-DP. Expected eps_lb ~= 2 - 3.29 (1 + sqrt((1 - p) / p)) / sqrt(n) at tau = 2, p = 1/(2e^2):
   * 2 - 3.29 * 4.7 / 274 ~= 1.94, so the chance that it stays <= 1 is negligible.
   */
  @Test
  void doubledSensitivityIsCaught(TestReporter reporter) {
    double[] countedTwice = {2};
    AuditResult result = audit(
        NoisyClippedSum.clipping(COUNT_ON_ORIGINAL, countedTwice, 2 * CLIP_BOUND, calibratedNoise()),
        countedTwice, 20240612L, reporter);

    assertThrows(AssertionError.class, () -> result.assertAtMost(CLAIMED_EPSILON));
  }

  /**
   * A record of size 5 x the clip bound enters unclipped: the mechanism is only 5-DP. Even at tau = 5
   * (p = 0.0034, 250 expected hits in n) the bound is far above 1.
   */
  @Test
  void skippedClipIsCaught(TestReporter reporter) {
    double[] oversized = {5 * CLIP_BOUND};
    AuditResult result = audit(
        NoisyClippedSum.skippingTheClip(COUNT_ON_ORIGINAL, oversized, calibratedNoise()),
        oversized, 20240613L, reporter);

    assertThrows(AssertionError.class, () -> result.assertAtMost(CLAIMED_EPSILON));
  }
}
