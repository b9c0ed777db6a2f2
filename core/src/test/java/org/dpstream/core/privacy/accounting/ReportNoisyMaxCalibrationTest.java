package org.dpstream.core.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReportNoisyMaxCalibrationTest {

  private static final PrivacyBudget ONE_AND_ONE_IN_A_THOUSAND = new PrivacyBudget(1, 1e-3);

  /** n = 1000, D = 4, beta = L = 1: here ln n = ln(1/delta) = 6.907755, so sqrt(ln n ln(1/delta)) = 6.907755. */
  private static ReportNoisyMaxCalibration example() {
    return ReportNoisyMaxCalibration.of(ONE_AND_ONE_IN_A_THOUSAND, 1000, 4, 1, 1);
  }

  @Test
  void laplaceScaleOfAlgorithm2ByHand() {
    // b_t = 4 D (beta D + L) sqrt(ln n ln(1/delta)) / (eps sqrt t) = 4 * 4 * 5 * 6.907755 / sqrt t
    //     = 552.6204 / sqrt t
    ReportNoisyMaxCalibration calibration = example();
    assertEquals(552.6204, calibration.laplaceScaleAt(1), 1e-4);
    assertEquals(276.3102, calibration.laplaceScaleAt(4), 1e-4);
    assertTrue(calibration.laplaceScaleAt(1) >= 80 * Math.log(1000), "rounded up");
  }

  @Test
  void perStepEpsilonByHandAndFromTheSensitivity() {
    ReportNoisyMaxCalibration calibration = example();
    // eps_t = eps sqrt(t) / (2 (t + 1) sqrt(ln n ln(1/delta))): eps_1 = 1 / (2 * 2 * 6.907755) = 0.0361912
    assertEquals(0.0361912, calibration.perStepEpsilon(1), 1e-7);
    // eps_3 = sqrt 3 / (2 * 4 * 6.907755) = 1.7320508 / 55.262042 = 0.0313425
    assertEquals(0.0313425, calibration.perStepEpsilon(3), 1e-7);
    // Same from report noisy max: Delta_3 = (D/2) * 2 (beta D + L) / (t + 1) = 2 * 10 / 4 = 5,
    // b_3 = 552.6204 / sqrt 3 = 319.0555, eps_3 = 2 Delta / b = 10 / 319.0555 = 0.0313425
    assertEquals(2 * 5 / calibration.laplaceScaleAt(3), calibration.perStepEpsilon(3), 1e-12);
  }

  @Test
  void printedScaleIsAtLeastWhatTheProofNeeds() {
    // Proof (A.6): Lap(2 s_t sqrt(t ln n ln(1/delta)) / eps) with s_t = 2 D (beta D + L) / (t + 1).
    ReportNoisyMaxCalibration calibration = example();
    for (long t = 1; t <= 10_000; t++) {
      double proofScale = 2 * (2.0 * 4 * 5 / (t + 1)) * Math.sqrt(t * Math.log(1000) * Math.log(1000)) / 1;
      assertTrue(calibration.laplaceScaleAt(t) >= proofScale);
    }
  }

  @Test
  void spentAfterOneStepIsTheOneStepEpsilon() {
    // basic: eps_1 = 0.0361912; advanced: eps_1 (e^eps_1 - 1) + sqrt(2 ln 1000 eps_1^2)
    //   = 0.0013335 + 0.0361912 * 3.716922 = 0.1358530, so basic wins
    assertEquals(0.0361912, example().spentAfter(1).epsilon(), 1e-7);
    assertEquals(1e-3, example().spentAfter(1).delta());
  }

  @Test
  void spentMatchesTheCompositionSummedTermByTerm() {
    ReportNoisyMaxCalibration calibration = example();
    for (long t : new long[] {1, 2, 10, 500, 1000, 1024}) {
      double exact = composedByBruteForce(t);
      double spent = calibration.spentAfter(t).epsilon();
      assertTrue(spent >= exact && spent <= exact * (1 + 1e-9), () -> "t=" + t + ": " + spent + " vs " + exact);
    }
    // past the exact prefix the tails are integral upper bounds: still above, and close
    for (long t : new long[] {1025, 5000, 100_000}) {
      double exact = composedByBruteForce(t);
      double spent = calibration.spentAfter(t).epsilon();
      assertTrue(spent >= exact && spent <= exact * 1.01, () -> "t=" + t + ": " + spent + " vs " + exact);
    }
  }

  /** min(sum eps_j, sum eps_j (e^eps_j - 1) + sqrt(2 ln(1/delta) sum eps_j^2)) for the example. */
  private static double composedByBruteForce(long t) {
    double basic = 0;
    double squares = 0;
    double expected = 0;
    for (long j = 1; j <= t; j++) {
      double epsilonJ = Math.sqrt(j) / (2 * (j + 1) * Math.log(1000));
      basic += epsilonJ;
      squares += epsilonJ * epsilonJ;
      expected += epsilonJ * Math.expm1(epsilonJ);
    }
    return Math.min(basic, expected + Math.sqrt(2 * Math.log(1000) * squares));
  }

  @Test
  void theProofsLastLineUnderstatesTheCostWhichWeDoNotCopy() {
    // Proof (A.6) ends with sum eps_t^2 + sqrt(2 ln(1/delta) sum eps_t^2); Azuma gives
    // sum eps_t (e^eps_t - 1) + ..., which is larger because e^x - 1 > x.
    double squares = 0;
    for (long j = 1; j <= 1000; j++) {
      double epsilonJ = Math.sqrt(j) / (2 * (j + 1) * Math.log(1000));
      squares += epsilonJ * epsilonJ;
    }
    double proofsLastLine = squares + Math.sqrt(2 * Math.log(1000) * squares);
    assertTrue(example().spentAfter(1000).epsilon() > proofsLastLine);
  }

  @Test
  void spentIsNonDecreasingWithinBudgetAtTheHorizonAndGrowsPastIt() {
    ReportNoisyMaxCalibration calibration = example();
    double previous = 0;
    for (long t = 1; t <= 3000; t++) {
      double spent = calibration.spentAfter(t).epsilon();
      assertTrue(spent >= previous, "t=" + t);
      previous = spent;
    }
    assertTrue(calibration.spentAfter(1000).isWithin(ONE_AND_ONE_IN_A_THOUSAND));
    // about 0.681 at n = 1000; continuing the same recursion past n keeps composing
    assertTrue(calibration.spentAfter(10_000).epsilon() > calibration.spentAfter(1000).epsilon());
  }

  @Test
  void refusesParametersWhoseScaleDoesNotGiveTheBudget() {
    // delta = 0.99, n = 2: sqrt(ln 2 ln(1/0.99)) = sqrt(0.6931 * 0.01005) = 0.08347;
    // eps_1 = 1 / (2 * 2 * 0.08347) = 2.995 > 1 already, and advanced composition is worse.
    assertThrows(IllegalArgumentException.class,
        () -> ReportNoisyMaxCalibration.of(new PrivacyBudget(1, 0.99), 2, 4, 1, 1));
    assertThrows(IllegalArgumentException.class,
        () -> ReportNoisyMaxCalibration.of(ONE_AND_ONE_IN_A_THOUSAND, 1, 4, 1, 1)); // ln 1 = 0: no noise
    assertThrows(IllegalArgumentException.class,
        () -> ReportNoisyMaxCalibration.of(new PrivacyBudget(1, 0), 1000, 4, 1, 1));
    assertThrows(IllegalArgumentException.class,
        () -> ReportNoisyMaxCalibration.of(ONE_AND_ONE_IN_A_THOUSAND, 1000, 4, 0, 0));
  }

  @Test
  void paperSettingsFitTheirBudget() {
    for (long horizon : new long[] {2, 3, 100, 1000, 10_000, 1_000_000}) {
      for (double epsilon : new double[] {0.1, 1, 5}) {
        PrivacyBudget budget = new PrivacyBudget(epsilon, 1.0 / horizon); // the paper's (eps, 1/T)
        ReportNoisyMaxCalibration calibration = ReportNoisyMaxCalibration.of(budget, horizon, 4, 1, 1);
        assertTrue(calibration.spentAfter(horizon).isWithin(budget), calibration::toString);
      }
    }
  }
}
