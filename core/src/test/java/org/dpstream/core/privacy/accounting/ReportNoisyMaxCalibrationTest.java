package org.dpstream.core.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
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
    IllegalArgumentException oneStep = assertThrows(IllegalArgumentException.class,
        () -> ReportNoisyMaxCalibration.of(ONE_AND_ONE_IN_A_THOUSAND, 1, 4, 1, 1)); // ln 1 = 0: no noise
    assertTrue(oneStep.getMessage().startsWith("Algorithm 2 needs a horizon n >= 2"), oneStep::getMessage);
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

  @Test
  void scaleDividesByTheBudgetsEpsilon() {
    // Same as the example with epsilon = 2: b_1 = 552.6204 / 2 = 276.3102, b_4 = 138.1551;
    // eps_1 = 2 / (2 * 2 * 6.907755) = 0.0723824.
    ReportNoisyMaxCalibration calibration = ReportNoisyMaxCalibration.of(new PrivacyBudget(2, 1e-3), 1000, 4, 1, 1);
    assertEquals(276.3102, calibration.laplaceScaleAt(1), 1e-4);
    assertEquals(138.1551, calibration.laplaceScaleAt(4), 1e-4);
    assertEquals(0.0723824, calibration.perStepEpsilon(1), 1e-7);
  }

  @Test
  void refusesStepsBelowOne() {
    ReportNoisyMaxCalibration calibration = example();
    for (long step : new long[] {0, -1, Long.MIN_VALUE}) {
      assertThrows(IllegalArgumentException.class, () -> calibration.laplaceScaleAt(step));
      assertThrows(IllegalArgumentException.class, () -> calibration.perStepEpsilon(step));
      assertThrows(IllegalArgumentException.class, () -> calibration.spentAfter(step));
    }
  }

  /**
   * D must be positive and finite, beta and L non-negative with beta D + L positive and finite; each
   * refusal below fails only the check it names (beta D + L is positive and finite in the first four).
   */
  @Test
  void scoreBoundsRefuseExactlyTheInvalidOnes() {
    double[][] refused = {
        {0, 1, 1}, // D = 0 (beta D + L = 1)
        {-1, 1, 3}, // D < 0 (beta D + L = 2)
        {4, -1, 10}, // beta < 0 (beta D + L = 6)
        {4, 1, -1}, // L < 0 (beta D + L = 3)
        {4, 0, 0}, // beta D + L = 0
        {1e10, 1e300, 0}, // beta D overflows to infinity (beta / D would not)
        {1, Double.MAX_VALUE, Double.MAX_VALUE}, // beta D + L overflows (beta D - L would not)
        {0.5, Double.MIN_VALUE, 0}, // beta D underflows to 0 (beta / D would not)
        {Double.NaN, 1, 1}, {4, Double.NaN, 1}, {4, 1, Double.NaN},
        {Double.POSITIVE_INFINITY, 0, 1}, {4, 1, Double.POSITIVE_INFINITY}};
    for (double[] bounds : refused) {
      assertThrows(IllegalArgumentException.class,
          () -> ReportNoisyMaxCalibration.requireScoreBounds(bounds[0], bounds[1], bounds[2]),
          () -> java.util.Arrays.toString(bounds));
    }
    // the boundaries are allowed: beta = 0 or L = 0 alone; beta D = L (so beta D - L would be 0)
    ReportNoisyMaxCalibration.requireScoreBounds(4, 0, 1);
    ReportNoisyMaxCalibration.requireScoreBounds(4, 1, 0);
    ReportNoisyMaxCalibration.requireScoreBounds(4, 1, 4);
    ReportNoisyMaxCalibration.requireScoreBounds(Double.MIN_VALUE, 0, Double.MIN_VALUE);
    // and of() applies them
    assertThrows(IllegalArgumentException.class, () -> ReportNoisyMaxCalibration.of(ONE_AND_ONE_IN_A_THOUSAND, 1000, -1, 1, 3));
  }

  @Test
  void accessorsReturnWhatItWasBuiltWith() {
    ReportNoisyMaxCalibration calibration = ReportNoisyMaxCalibration.of(ONE_AND_ONE_IN_A_THOUSAND, 1000, 4, 0.5, 3);
    assertEquals(ONE_AND_ONE_IN_A_THOUSAND, calibration.budget());
    assertEquals(1000, calibration.horizon());
    assertEquals(4, calibration.diameter());
    assertEquals(0.5, calibration.smoothness());
    assertEquals(3, calibration.lipschitz());
    assertEquals("paper-thm-3.4", calibration.accountant());
    // b_1 = 4 * 4 * (0.5 * 4 + 3) * 6.907755 / 1 = 552.6204
    assertEquals("ReportNoisyMaxCalibration[budget=" + ONE_AND_ONE_IN_A_THOUSAND + ", n=1000, D=4.0, beta=0.5, L=3.0, b_1="
        + calibration.laplaceScaleAt(1) + "]", calibration.toString());
    assertEquals(552.6204, calibration.laplaceScaleAt(1), 1e-4);
  }

  /**
   * Past the exact prefix (t > 1024), basic composition is the exact prefix plus 2 c (t - 1024) / (sqrt t +
   * sqrt 1024), the integral bound 2 c (sqrt t - sqrt 1024) written without cancellation, where
   * eps_j = c sqrt(j) / (j + 1) and c = eps / (2 sqrt(ln n ln(1/delta))). With delta = 1e-300
   * (ln(1/delta) = 690.8) advanced composition's sqrt(2 ln(1/delta) sum eps_j^2) exceeds basic up to
   * t = 2000, so the charged value is that bound; computed here in BigDecimal (34 digits) from the formula.
   */
  @Test
  void basicCompositionTailPastTheExactPrefixByTheIntegralBound() {
    long n = 2000;
    double delta = 1e-300;
    ReportNoisyMaxCalibration calibration = ReportNoisyMaxCalibration.of(new PrivacyBudget(1, delta), n, 4, 1, 1);
    MathContext mc = MathContext.DECIMAL128;
    BigDecimal c = BigDecimal.ONE.divide(
        BigDecimal.valueOf(2).multiply(new BigDecimal(Math.log(n) * -Math.log(delta)).sqrt(mc)), mc);
    BigDecimal prefix = BigDecimal.ZERO;
    for (int j = 1; j <= 1024; j++) {
      prefix = prefix.add(c.multiply(BigDecimal.valueOf(j).sqrt(mc)).divide(BigDecimal.valueOf(j + 1), mc));
    }
    for (long t : new long[] {1025, 1500, 2000}) {
      BigDecimal tail = BigDecimal.valueOf(2).multiply(c).multiply(BigDecimal.valueOf(t - 1024))
          .divide(BigDecimal.valueOf(t).sqrt(mc).add(BigDecimal.valueOf(32)), mc);
      double expected = prefix.add(tail).doubleValue();
      double spent = calibration.spentAfter(t).epsilon();
      assertTrue(spent >= expected && spent <= expected * (1 + 1e-9), () -> "t=" + t + ": " + spent + " vs " + expected);
    }
    // the prefix alone, at t = 1024, for comparison (no tail)
    double atPrefixEnd = calibration.spentAfter(1024).epsilon();
    assertEquals(prefix.doubleValue(), atPrefixEnd, prefix.doubleValue() * 1e-9);
  }
}
