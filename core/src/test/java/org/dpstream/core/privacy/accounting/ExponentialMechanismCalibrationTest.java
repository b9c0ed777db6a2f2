package org.dpstream.core.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
