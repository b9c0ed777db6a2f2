package org.dpstream.core.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpstream.core.distributed.DpDdaAccountant.NoiseConstant;
import org.junit.jupiter.api.Test;

/**
 * Theorem 1's accountant against values worked by hand for L = 1, q = 100, iota = 0.1, delta_0 = 0.01,
 * eps = 0.5, T = 400 000 (&gt;= T_min = 5 * 100^2 * 0.25 / (4 * 0.01) = 312 500), ln(2/delta_0) = ln 200 =
 * 5.298317.
 */
class DpDdaAccountantTest {

  private static final DpDdaAccountant ACCOUNTANT = DpDdaAccountant.of(1, 100, 0.1, 0.01, 400_000);

  @Test
  void minimumRoundsIsTheoremOnesCondition() {
    assertEquals(312_500, DpDdaAccountant.minimumRounds(100, 0.5, 0.1));
    // The paper's own experimental setting: q = 20000, iota = 0.1, eps = 0.8 needs 3.2e10 rounds.
    assertEquals(32_000_000_000L, DpDdaAccountant.minimumRounds(20_000, 0.8, 0.1));
  }

  @Test
  void sigmaWithTheConstantForWhichTheProofCloses() {
    // sigma^2 = 160 * 0.01 * 400000 * 5.298317 / (10^4 * 0.25) = 1356.369 -> sigma = 36.82892.
    double sigma = ACCOUNTANT.calibrateSigma(0.5, NoiseConstant.PROOF_CLOSES);
    assertEquals(36.828918608, sigma, 1e-8);
    // With 32 it is sqrt(5) smaller: 16.47039.
    assertEquals(16.470393109, ACCOUNTANT.calibrateSigma(0.5, NoiseConstant.AS_STATED), 1e-8);
  }

  @Test
  void reportedGuaranteeFollowsTheLemmaChainByHand() {
    double sigma = ACCOUNTANT.calibrateSigma(0.5, NoiseConstant.PROOF_CLOSES);
    DpDdaPrivacyReport report = ACCOUNTANT.report(sigma, 0.5);
    // eps_t = 2 sqrt(2 ln 200) / sigma; eps_t^2 = q^2 eps^2 / (20 iota^2 T) = 2500 / 80000 = 0.03125.
    assertEquals(Math.sqrt(0.03125), report.stepEpsilon(), 1e-9);
    // eps'_t = ln(1 + 0.001 (e^0.1767767 - 1)) = 1.9334589e-4 (the paper's bound 2 iota eps_t / q = 3.54e-4).
    assertEquals(1.9334588693e-4, report.amplifiedStepEpsilon(), 1e-12);
    // delta' = sqrt(T eps'^2) = sqrt(0.0149531) = 0.1222827.
    assertEquals(0.12228267578, report.compositionSlack(), 1e-9);
    // eps~ = T eps' tanh(eps'/2) + eps' sqrt(2T ln(e + sqrt(T) eps'/delta')) = 0.2056546 <= 0.5: the proof closes.
    assertEquals(0.20565458444, report.epsilon(), 1e-9);
    // delta~ = 1 - (1 - delta')(1 - 1e-5)^400000 = 0.98392: T iota delta_0 / q = 4, so delta is vacuous.
    assertEquals(0.98392436796, report.delta(), 1e-9);
    assertTrue(report.theoremConditionHolds());
    assertTrue(report.warnings().stream().anyMatch(w -> w.contains("not a meaningful")), report.describe());
  }

  @Test
  void withTheStatedConstantThePaperChainFailsToReachTheTarget() {
    double sigma = ACCOUNTANT.calibrateSigma(0.5, NoiseConstant.AS_STATED);
    DpDdaPrivacyReport report = ACCOUNTANT.report(sigma, 0.5);
    // eps_t^2 = 0.15625; eps'_t = 4.8468939e-4; delta' = 0.3065445; eps~ = 0.5183845 > 0.5.
    assertEquals(0.51838447624, report.epsilon(), 1e-9);
    assertTrue(report.warnings().stream().anyMatch(w -> w.contains("weaker than the target")), report.describe());
  }

  @Test
  void aFixedCompositionSlackTradesDeltaForEpsilon() {
    double sigma = ACCOUNTANT.calibrateSigma(0.5, NoiseConstant.PROOF_CLOSES);
    DpDdaPrivacyReport report = ACCOUNTANT.withCompositionSlack(1e-5).report(sigma, 0.5);
    // Third KOV branch: T eps' tanh(eps'/2) + eps' sqrt(2T ln(1e5)) = 0.538012.
    assertEquals(0.53801222401, report.epsilon(), 1e-9);
  }

  @Test
  void violatingTheConditionOnTWarnsAndReportsWhatRemains() {
    DpDdaAccountant shortRun = DpDdaAccountant.of(1, 100, 0.1, 0.01, 1_000);
    double sigma = shortRun.calibrateSigma(0.5, NoiseConstant.PROOF_CLOSES);
    DpDdaPrivacyReport report = shortRun.report(sigma, 0.5);
    assertFalse(report.theoremConditionHolds(), report.describe());
    // eps_t^2 = 2500 / (20 * 0.01 * 1000) = 12.5 > 1: Lemma 4.1 does not apply; the analytic Gaussian does.
    assertTrue(report.warnings().stream().anyMatch(w -> w.contains("analytic Gaussian")), report.describe());
    assertEquals(0.01, DpDdaAccountant.gaussianDelta(report.stepEpsilon(), 2, sigma), 1e-9);
    assertTrue(report.stepEpsilon() < Math.sqrt(12.5), "the analytic mechanism is tighter than Lemma 4.1");
  }

  @Test
  void observableActiveSetLosesTheIotaAmplification() {
    double sigma = ACCOUNTANT.calibrateSigma(0.5, NoiseConstant.PROOF_CLOSES);
    DpDdaPrivacyReport hidden = ACCOUNTANT.report(sigma, 0.5);
    DpDdaPrivacyReport observable =
        ACCOUNTANT.withVisibility(DpDdaAccountant.ActiveSetVisibility.OBSERVABLE).report(sigma, 0.5);
    assertEquals(Math.log1p(0.01 * Math.expm1(hidden.stepEpsilon())), observable.amplifiedStepEpsilon(), 1e-12);
    assertTrue(observable.epsilon() > 3 * hidden.epsilon(), observable.describe());
  }

  @Test
  void calibrationToTheReportReachesTheTargetEpsilonForAnyHorizon() {
    // T far below T_min: Theorem 1's sigma then misses the target, the report-calibrated sigma does not
    for (double iota : new double[] {0.1, 0.2, 1.0}) {
      DpDdaAccountant shortRun = DpDdaAccountant.of(1, 600, iota, 1e-6, (long) (1800 / iota)).withCompositionSlack(1e-6);
      double sigma = shortRun.calibrateSigmaToReport(0.5);
      assertTrue(shortRun.report(sigma, 0.5).epsilon() <= 0.5, "valid at iota = " + iota);
      assertTrue(shortRun.report(sigma * (1 - 1e-6), 0.5).epsilon() > 0.5, "and tight at iota = " + iota);
      assertTrue(shortRun.report(sigma, 0.5).delta() < 1e-5, "delta = delta' + T iota delta0 / q, all small");
    }
  }

  @Test
  void paperRemarkSevenIsAvailableForComparison() {
    assertEquals(Math.sqrt(0.3) * 0.5 + 0.1 * 0.25, DpDdaAccountant.paperEpsilonAfter(50, 100, 0.5), 1e-15);
  }
}
