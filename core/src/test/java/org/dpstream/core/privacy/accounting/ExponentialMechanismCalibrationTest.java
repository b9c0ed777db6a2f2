package org.dpstream.core.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import org.junit.jupiter.api.Test;

class ExponentialMechanismCalibrationTest {

  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-5);

  @Test
  void harmonicBoundIsExactForShortPrefixesAndAboveTheTruthBeyond() {
    ExponentialMechanismCalibration calibration = ExponentialMechanismCalibration.of(BUDGET, 100_000, 4, 1, 3);
    // H_4 = 1 + 1/2 + 1/3 + 1/4 = 25/12.
    assertEquals(25.0 / 12, calibration.harmonicUpperBound(4), 1e-9); // upward rounding adds 2^-40 a term
    assertTrue(calibration.harmonicUpperBound(4) >= 25.0 / 12);
    double exact = 0;
    for (int j = 1; j <= 50_000; j++) {
      exact += 1.0 / j;
    }
    double bound = calibration.harmonicUpperBound(50_000);
    assertTrue(bound >= exact && bound - exact < 1e-9, "bound " + bound + " vs " + exact);
  }

  /**
   * rho(n) = c^2 H_n / 8 must use the whole budget (converted back, within 1e-6 of epsilon) and never
   * exceed it; spent grows with t.
   */
  @Test
  void spendsTheBudgetAtTheHorizonAndNeverMore() {
    for (long n : new long[] {2, 100, 10_000, 1_000_000}) {
      ExponentialMechanismCalibration calibration = ExponentialMechanismCalibration.of(BUDGET, n, 4, 1, 3);
      PrivacyBudget atHorizon = calibration.spentAfter(n);
      assertTrue(atHorizon.isWithin(BUDGET), n + ": " + atHorizon);
      assertTrue(atHorizon.epsilon() > 1 - 1e-6, n + ": " + atHorizon);
      double previous = 0;
      for (long t = 1; t <= Math.min(n, 3000); t += 7) {
        double spent = calibration.spentAfter(t).epsilon();
        assertTrue(spent >= previous, "t=" + t);
        previous = spent;
      }
    }
  }

  /**
   * The ledger's values come from checkpoints: each must be at least the exact map at its step (never
   * understate), exact at the horizon, and within a percent of the exact value (checkpoints about 1.1%
   * apart in t, and epsilon grows more slowly than t).
   */
  @Test
  void checkpointedMapNeverUnderstatesAndStaysClose() {
    long n = 200_000;
    ExponentialMechanismCalibration calibration = ExponentialMechanismCalibration.of(BUDGET, n, 4, 1, 3);
    for (long t = 1; t <= n; t = t < 100 ? t + 1 : t + 997) {
      double charged = calibration.spentAfter(t).epsilon();
      double exact = calibration.exactSpentAfter(t).epsilon();
      assertTrue(charged >= exact, "t=" + t + ": " + charged + " < " + exact);
      assertTrue(charged <= exact * 1.01, "t=" + t + ": " + charged + " vs " + exact);
    }
    assertEquals(calibration.exactSpentAfter(n), calibration.spentAfter(n));
  }

  /**
   * beta_t = 2 Delta_t / epsilon_t with Delta_t = D (beta D + L) / (t + 1) and epsilon_t = c / sqrt(t);
   * worked by hand from the calibration's own epsilon_t at t = 4: D = 4, beta = 1, L = 3 give
   * Delta_4 = 4 * 7 / 5 = 5.6.
   */
  @Test
  void gumbelScaleIsTwiceTheUtilitySensitivityOverEpsilonT() {
    ExponentialMechanismCalibration calibration = ExponentialMechanismCalibration.of(BUDGET, 1000, 4, 1, 3);
    double expected = 2 * 5.6 / calibration.perStepEpsilon(4);
    assertEquals(expected, calibration.gumbelScaleAt(4), expected * 1e-10);
    assertTrue(calibration.gumbelScaleAt(4) >= expected);
  }

  /**
   * Against Algorithm 2's printed Laplace scale at the same budget and horizon, the Gumbel scale is
   * several times smaller: same shape in t, bounded-range zCDP (eps^2/8) instead of pure DP under
   * advanced composition. Standard deviations: Gumbel pi beta / sqrt(6), Laplace sqrt(2) b.
   */
  @Test
  void noiseIsSeveralTimesBelowTheLaplaceCalibrationOfAlgorithm2() {
    long n = 20_000;
    ExponentialMechanismCalibration gumbel = ExponentialMechanismCalibration.of(BUDGET, n, 4, 1, 3);
    ReportNoisyMaxCalibration laplace = ReportNoisyMaxCalibration.of(BUDGET, n, 4, 1, 3);
    for (long t : new long[] {1, 10, 1000, n}) {
      double gumbelSd = Math.PI * gumbel.gumbelScaleAt(t) / Math.sqrt(6);
      double laplaceSd = Math.sqrt(2) * laplace.laplaceScaleAt(t);
      assertTrue(laplaceSd / gumbelSd > 2, "t=" + t + ": " + laplaceSd / gumbelSd);
    }
  }

  /**
   * The exact prefix runs up to and including t = 1024, the asymptotic bound ln t + gamma + 1/(2t) from
   * 1025. H_t computed in BigDecimal (34 digits). The prefix's upward rounding costs at most 1024 terms of
   * 2^-40 relative (under 1e-8 in all); the asymptotic bound exceeds H_t by about 1/(12 t^2) = 7.9e-8 there,
   * so the two are told apart at t = 1024.
   */
  @Test
  void harmonicBoundSwitchesToTheAsymptoticFormulaAfter1024() {
    ExponentialMechanismCalibration calibration = ExponentialMechanismCalibration.of(BUDGET, 1000, 4, 1, 3);
    MathContext mc = MathContext.DECIMAL128;
    BigDecimal harmonic = BigDecimal.ZERO;
    for (int j = 1; j <= 1024; j++) {
      harmonic = harmonic.add(BigDecimal.ONE.divide(BigDecimal.valueOf(j), mc));
    }
    double h1024 = harmonic.doubleValue();
    double h1025 = harmonic.add(BigDecimal.ONE.divide(BigDecimal.valueOf(1025), mc)).doubleValue();
    double excess1024 = calibration.harmonicUpperBound(1024) - h1024;
    assertTrue(excess1024 >= 0 && excess1024 < 1e-8, "excess at 1024: " + excess1024);
    double excess1025 = calibration.harmonicUpperBound(1025) - h1025;
    assertTrue(excess1025 > 7e-8 && excess1025 < 9e-8, "excess at 1025: " + excess1025); // 1/(12 * 1025^2)
    // each prefix term is rounded up by 2^-40 relative (about 1e-12) and one ulp
    assertEquals(1.5, calibration.harmonicUpperBound(2), 1e-11);
    assertTrue(calibration.harmonicUpperBound(2) > 1.5);
    assertEquals(1, calibration.harmonicUpperBound(1), 1e-11);
  }

  @Test
  void refusesBadStepsAndParameters() {
    ExponentialMechanismCalibration calibration = ExponentialMechanismCalibration.of(BUDGET, 1000, 4, 1, 3);
    for (long step : new long[] {0, -1, Long.MIN_VALUE}) {
      assertThrows(IllegalArgumentException.class, () -> calibration.perStepEpsilon(step));
      assertThrows(IllegalArgumentException.class, () -> calibration.gumbelScaleAt(step));
      assertThrows(IllegalArgumentException.class, () -> calibration.spentAfter(step));
    }
    assertThrows(IllegalArgumentException.class, () -> ExponentialMechanismCalibration.of(BUDGET, 1, 4, 1, 3));
    IllegalArgumentException pure = assertThrows(IllegalArgumentException.class,
        () -> ExponentialMechanismCalibration.of(new PrivacyBudget(1, 0), 1000, 4, 1, 3));
    assertTrue(pure.getMessage().startsWith("zCDP accounting needs delta > 0"), pure::getMessage);
    // D = -1 with beta D + L = 2 > 0: only the diameter check refuses it
    assertThrows(IllegalArgumentException.class, () -> ExponentialMechanismCalibration.of(BUDGET, 1000, -1, 1, 3));
    assertThrows(IllegalArgumentException.class, () -> ExponentialMechanismCalibration.of(BUDGET, 1000, 4, 0, 0));
  }

  /**
   * Past the horizon the recursion keeps composing: the exact map at n + 1 (no checkpoint there), which
   * exceeds the budget since rho grows by c^2 / (8 (n + 1)).
   */
  @Test
  void pastTheHorizonTheMapKeepsGrowingBeyondTheBudget() {
    ExponentialMechanismCalibration calibration = ExponentialMechanismCalibration.of(BUDGET, 1000, 4, 1, 3);
    assertEquals(calibration.exactSpentAfter(1001), calibration.spentAfter(1001));
    assertEquals(calibration.exactSpentAfter(5000), calibration.spentAfter(5000));
    assertTrue(calibration.spentAfter(1000).isWithin(BUDGET));
    assertFalse(calibration.spentAfter(1001).isWithin(BUDGET), () -> calibration.spentAfter(1001).toString());
    assertTrue(calibration.spentAfter(1001).epsilon() > calibration.spentAfter(1000).epsilon());
  }

  /**
   * Checkpoints: every t up to 64, then t' = max(t + 1, ceil(1.011 t)). By hand: 64, 65, ..., 91 (90 * 1.011 =
   * 90.99), then 91 * 1.011 = 92.001 gives 93, so step 92 is charged the exact map at 93, strictly more than
   * its own.
   */
  @Test
  void aStepBetweenCheckpointsIsChargedTheNextCheckpoint() {
    ExponentialMechanismCalibration calibration = ExponentialMechanismCalibration.of(BUDGET, 1000, 4, 1, 3);
    assertEquals(calibration.exactSpentAfter(91), calibration.spentAfter(91));
    assertEquals(calibration.exactSpentAfter(93), calibration.spentAfter(92));
    assertTrue(calibration.spentAfter(92).epsilon() > calibration.exactSpentAfter(92).epsilon());
    assertEquals(calibration.exactSpentAfter(93), calibration.spentAfter(93));
    assertEquals(calibration.exactSpentAfter(64), calibration.spentAfter(64));
  }

  /** epsilon_t = c / sqrt(t): epsilon_4 is exactly half of epsilon_1 = c, and epsilon_9 a third. */
  @Test
  void perStepEpsilonFallsAsOneOverRootT() {
    ExponentialMechanismCalibration calibration = ExponentialMechanismCalibration.of(BUDGET, 1000, 4, 1, 3);
    double c = calibration.perStepEpsilon(1);
    assertEquals(c / 2, calibration.perStepEpsilon(4));
    assertEquals(c / 3, calibration.perStepEpsilon(9), c * 1e-15);
  }

  @Test
  void accessorsAndDescription() {
    ExponentialMechanismCalibration calibration = ExponentialMechanismCalibration.of(BUDGET, 1000, 4, 1, 3);
    assertEquals(BUDGET, calibration.budget());
    assertEquals(1000, calibration.horizon());
    assertEquals("zcdp-cks20-exponential-mechanism", calibration.accountant());
    assertEquals("ExponentialMechanismCalibration[" + BUDGET + ", n=1000, c=" + calibration.perStepEpsilon(1) + "]",
        calibration.toString());
  }
}
