package org.dpstream.core.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ZeroConcentratedDpTest {

  private static final double[] EPSILONS = {0.01, 0.1, 0.5, 1, 2, 5, 20};
  private static final double[] DELTAS = {0.5, 1e-2, 1e-5, 1e-9, 1e-15};

  @Test
  void simpleConversionByHand() {
    // rho = 0.5, delta = 1e-5: ln(1e5) = 11.512925; 0.5 * 11.512925 = 5.756463; sqrt = 2.399263
    // epsilon = 0.5 + 2 * 2.399263 = 5.298526
    double epsilon = ZeroConcentratedDp.epsilon(0.5, 1e-5);
    assertEquals(5.298526, epsilon, 1e-6);
    assertTrue(epsilon >= 0.5 + 2 * Math.sqrt(0.5 * Math.log(1e5)), "rounded up");
    assertEquals(0, ZeroConcentratedDp.epsilon(0, 1e-5));
  }

  @Test
  void simpleInverseByHand() {
    // epsilon = 1, delta = 1e-3: L = ln 1000 = 6.907755; sqrt(7.907755) = 2.812073, sqrt(6.907755) = 2.628261
    // rho = (2.812073 - 2.628261)^2 = 0.183812^2 = 0.033787
    double rho = ZeroConcentratedDp.maxRho(1, 1e-3);
    assertEquals(0.033787, rho, 1e-6);
    double closedForm = Math.pow(Math.sqrt(Math.log(1000) + 1) - Math.sqrt(Math.log(1000)), 2);
    assertTrue(rho <= closedForm, "rounded down");
  }

  @Test
  void simpleRoundTripStaysWithinBudgetAndIsTight() {
    for (double epsilon : EPSILONS) {
      for (double delta : DELTAS) {
        double rho = ZeroConcentratedDp.maxRho(epsilon, delta);
        double back = ZeroConcentratedDp.epsilon(rho, delta);
        assertTrue(back <= epsilon, () -> "epsilon(maxRho) = " + back + " > " + epsilon);
        assertTrue(back >= epsilon * (1 - 1e-9), "calibration wastes budget");
        assertTrue(ZeroConcentratedDp.epsilon(rho * (1 + 1e-9), delta) > epsilon, "not the largest rho");
      }
    }
  }

  @Test
  void tightConversionIsNeverLooserThanSimple() {
    for (double rho : new double[] {1e-8, 1e-4, 0.01, 0.0338, 0.5, 3, 100}) {
      for (double delta : DELTAS) {
        assertTrue(ZeroConcentratedDp.epsilonTight(rho, delta) <= ZeroConcentratedDp.epsilon(rho, delta));
      }
    }
  }

  @Test
  void tightRoundTripStaysWithinBudgetAndBeatsSimple() {
    for (double epsilon : EPSILONS) {
      for (double delta : DELTAS) {
        double rho = ZeroConcentratedDp.maxRhoTight(epsilon, delta);
        double back = ZeroConcentratedDp.epsilonTight(rho, delta);
        assertTrue(back <= epsilon, () -> "epsilonTight(maxRhoTight) = " + back + " > " + epsilon);
        assertTrue(rho >= ZeroConcentratedDp.maxRho(epsilon, delta), "tight must allow at least simple's rho");
        assertTrue(ZeroConcentratedDp.epsilonTight(rho * (1 + 1e-9), delta) > epsilon, "not the largest rho");
      }
    }
    // The gain is real where it matters: at (1, 1e-3) the tight rho is about 1.76x the simple one.
    assertTrue(ZeroConcentratedDp.maxRhoTight(1, 1e-3) > 1.7 * ZeroConcentratedDp.maxRho(1, 1e-3));
  }

  @Test
  void tightConversionMatchesABruteForceGridOverAlpha() {
    for (double rho : new double[] {1e-4, 0.0338, 0.5, 10}) {
      for (double delta : new double[] {1e-5, 1e-10}) {
        double brute = bruteForceTightEpsilon(rho, delta);
        double searched = ZeroConcentratedDp.epsilonTight(rho, delta);
        // The search may only beat the grid by the grid's coarseness, and must not lose to it.
        assertTrue(searched <= brute, () -> "rho=" + rho + ", delta=" + delta + ": " + searched + " > " + brute);
        assertEquals(brute, searched, 1e-7 * brute, "rho=" + rho + ", delta=" + delta);
      }
    }
  }

  /**
   * The search's grid ends at alpha - 1 = e^45; its refinement reaches a quarter step beyond. At rho = 1.3e-38,
   * delta = 1e-30 the best order is near alpha - 1 = e^45.2, past the grid's last point, which alone would be 2 %
   * looser: the result must still match the printed form minimised over a dense range around it.
   */
  @Test
  void theBestOrderJustPastTheGridsEndIsStillFound() {
    double rho = 1.3e-38;
    double delta = 1e-30;
    double best = Double.POSITIVE_INFINITY;
    for (double u = 44; u <= 46; u += 1e-3) {
      double alpha = 1 + Math.exp(u);
      best = Math.min(best, alpha * rho
          + (Math.log(1 / delta) + (alpha - 1) * Math.log1p(-1 / alpha) - Math.log(alpha)) / (alpha - 1));
    }
    double searched = ZeroConcentratedDp.epsilonTight(rho, delta);
    assertEquals(best, searched, 1e-6 * best);
    assertTrue(searched < 0.6 * ZeroConcentratedDp.epsilon(rho, delta), "tighter than the simple conversion");
  }

  @Test
  void tightConversionClampsANegativeBoundToTheSmallestPositiveEpsilon() {
    // rho = 1e-4, delta = 1e-2: the bound goes below 0 (about -0.0023 near alpha = 66): the mechanism is
    // (0, 1e-2)-DP; the Gaussian's total variation is sqrt(rho / pi) = 0.0056 < 0.01, so this is right.
    assertTrue(bruteForceTightEpsilon(1e-4, 1e-2) < 0);
    assertEquals(Double.MIN_VALUE, ZeroConcentratedDp.epsilonTight(1e-4, 1e-2));
  }

  /**
   * Canonne, Kamath, Steinke 2020, Corollary 13, in its printed algebraic form (not the reparametrised one
   * of the implementation): epsilon = alpha rho + (ln(1/delta) + (alpha-1) ln(1-1/alpha) - ln alpha)/(alpha-1),
   * minimised over a dense grid alpha = 1 + 10^x, x in [-6, 6] step 1e-4.
   */
  private static double bruteForceTightEpsilon(double rho, double delta) {
    double best = Double.POSITIVE_INFINITY;
    for (double x = -6; x <= 6; x += 1e-4) {
      double alpha = 1 + Math.pow(10, x);
      double epsilon = alpha * rho
          + (Math.log(1 / delta) + (alpha - 1) * Math.log1p(-1 / alpha) - Math.log(alpha)) / (alpha - 1);
      best = Math.min(best, epsilon);
    }
    return best;
  }

  @Test
  void bothConversionsAreValidForTheGaussianMechanismByItsExactPrivacyCurve() {
    // A necessary condition: the Gaussian with sensitivity 1 and std sigma is rho = 1/(2 sigma^2)-zCDP, and
    // its exact delta at the converted epsilon must not exceed the requested delta.
    for (double sigma : new double[] {0.5, 1, 3, 12.76}) {
      double rho = 1 / (2 * sigma * sigma);
      for (double delta : new double[] {1e-2, 1e-5, 1e-9}) {
        for (ZcdpConversion conversion : ZcdpConversion.values()) {
          double epsilon = conversion.epsilon(rho, delta);
          assertTrue(GaussianPrivacyCurve.exactDelta(epsilon, 1, sigma) <= delta,
              () -> conversion + " sigma=" + sigma + " delta=" + delta);
        }
      }
    }
  }

  @Test
  void gaussianRhoByHand() {
    // S = 2, sigma = 4: rho = 4 / (2 * 16) = 0.125
    double rho = ZeroConcentratedDp.gaussianRho(2, 4);
    assertTrue(rho >= 0.125 && rho <= 0.125 * (1 + 1e-11));
  }

  @Test
  void gaussianRhoRefusesASensitivityOrSigmaThatIsNotPositiveAndFinite() {
    // A negative S would square to a plausible rho, a zero sigma to an infinite one: both are caller bugs.
    double[][] bad = {{-2, 4}, {0, 4}, {Double.NaN, 4}, {Double.POSITIVE_INFINITY, 4},
        {2, -4}, {2, 0}, {2, Double.NaN}, {2, Double.POSITIVE_INFINITY}};
    for (double[] pair : bad) {
      IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
          () -> ZeroConcentratedDp.gaussianRho(pair[0], pair[1]), () -> "S=" + pair[0] + ", sigma=" + pair[1]);
      assertTrue(error.getMessage().startsWith(pair[0] == 2 ? "sigma" : "l2 sensitivity"), error::getMessage);
    }
  }

  @Test
  void theInverseConversionsRefuseAnEpsilonThatIsNotPositiveAndFinite() {
    for (double epsilon : new double[] {-1, 0, Double.NaN, Double.POSITIVE_INFINITY}) {
      IllegalArgumentException simple = assertThrows(IllegalArgumentException.class,
          () -> ZeroConcentratedDp.maxRho(epsilon, 1e-5), "epsilon " + epsilon);
      assertTrue(simple.getMessage().startsWith("epsilon must be positive and finite"), simple::getMessage);
      assertThrows(IllegalArgumentException.class, () -> ZeroConcentratedDp.maxRhoTight(epsilon, 1e-5));
    }
  }

  /**
   * The last answer is kept for the same (epsilon, delta) only: a call for another epsilon or another delta
   * searches again, as the plans of one model and those of the next ask one after the other.
   */
  @Test
  void theRememberedTightInverseAnswersOnlyForItsOwnEpsilonAndDelta() {
    double one = ZeroConcentratedDp.maxRhoTight(1, 1e-5);
    double two = ZeroConcentratedDp.maxRhoTight(2, 1e-5);
    double twoAtSmallerDelta = ZeroConcentratedDp.maxRhoTight(2, 1e-6);
    assertEquals(one, ZeroConcentratedDp.maxRhoTight(1, 1e-5));
    assertTrue(two > one, "more epsilon, more rho");
    assertTrue(twoAtSmallerDelta < two, "less delta, less rho");
    assertTrue(ZeroConcentratedDp.epsilonTight(twoAtSmallerDelta, 1e-6) <= 2);
    ZeroConcentratedDp.clearForTests();
    assertEquals(two, ZeroConcentratedDp.maxRhoTight(2, 1e-5));
  }

  /**
   * The inverse is tight to the double: asked for an epsilon the conversion itself produced at rho, it finds a
   * rho at least that large (a boundary where epsilon is met exactly counts as within).
   */
  @Test
  void theTightInverseOfAnEpsilonTheConversionProducedGivesBackAtLeastItsRho() {
    for (double rho : new double[] {1e-4, 0.01, 0.3}) {
      double epsilon = ZeroConcentratedDp.epsilonTight(rho, 1e-5);
      double back = ZeroConcentratedDp.maxRhoTight(epsilon, 1e-5);
      assertTrue(back >= rho, "rho " + rho + ": " + back);
      assertTrue(ZeroConcentratedDp.epsilonTight(back, 1e-5) <= epsilon);
    }
  }

  @Test
  void nothingSpentCostsNothingAndARhoThatIsNotANonNegativeNumberIsRefused() {
    // rho = 0 is exactly epsilon 0 in both, not the clamp's smallest positive epsilon
    assertEquals(0, ZeroConcentratedDp.epsilon(0, 1e-5));
    assertEquals(0, ZeroConcentratedDp.epsilonTight(0, 1e-5));
    for (double rho : new double[] {-1, -Double.MIN_VALUE, Double.NaN, Double.POSITIVE_INFINITY}) {
      for (ZcdpConversion conversion : ZcdpConversion.values()) {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> conversion.epsilon(rho, 1e-5), () -> conversion + ", rho " + rho);
        assertTrue(error.getMessage().startsWith("rho must be non-negative and finite"), error::getMessage);
      }
    }
  }

  @Test
  void rejectsDeltaThatMakesTheConversionMeaningless() {
    assertThrows(IllegalArgumentException.class, () -> ZeroConcentratedDp.epsilon(1, 0));
    assertThrows(IllegalArgumentException.class, () -> ZeroConcentratedDp.maxRhoTight(1, 1));
    assertThrows(IllegalArgumentException.class, () -> ZeroConcentratedDp.epsilonTight(-1, 1e-5));
  }
}
