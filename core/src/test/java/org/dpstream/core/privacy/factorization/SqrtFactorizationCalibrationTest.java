package org.dpstream.core.privacy.factorization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.core.privacy.accounting.ZcdpBudget;
import org.dpstream.core.privacy.accounting.ZcdpConversion;
import org.junit.jupiter.api.Test;

class SqrtFactorizationCalibrationTest {

  private static final PrivacyBudget ONE_AND_ONE_IN_A_THOUSAND = new PrivacyBudget(1, 1e-3);
  private static final ZcdpBudget TIGHT = ZcdpBudget.of(ONE_AND_ONE_IN_A_THOUSAND);

  @Test
  void simpleConversionByHand() {
    // n = 4, S = 1, eps = 1, delta = 1e-3, L = ln 1000 = 6.907755
    // rho_max = (sqrt(7.907755) - sqrt(6.907755))^2 = 0.03378694
    // sum_{k<4} r_k^2 = 1 + 1/4 + 9/64 + 25/256 = 381/256 = 1.48828125
    // sigma = sqrt(1.48828125 / (2 * 0.03378694)) = sqrt(22.02454) = 4.693027
    SqrtFactorizationCalibration calibration =
        SqrtFactorizationCalibration.of(ZcdpBudget.of(ONE_AND_ONE_IN_A_THOUSAND, ZcdpConversion.SIMPLE), 4, 1);
    assertEquals("zcdp-bs16-sqrt-factorization", calibration.accountant());
    assertEquals(0.03378694, calibration.rhoBudget(), 1e-8);
    assertEquals(4.693027, calibration.noiseSigma(), 1e-6);
    // rho(t) = sum_{k<t} r_k^2 / (2 sigma^2) = sum / 44.04908
    assertEquals(0.02270199, calibration.rhoAfter(1), 1e-8); // 1 / 44.04908
    assertEquals(0.02837748, calibration.rhoAfter(2), 1e-8); // 1.25 / 44.04908
    assertEquals(0.03156995, calibration.rhoAfter(3), 1e-8); // 1.390625 / 44.04908
    // eps(t) = rho + 2 sqrt(rho L): t = 1: 0.0227020 + 2 sqrt(0.156820) = 0.0227020 + 0.792009 = 0.814711
    assertEquals(0.814711, calibration.spentAfter(1).epsilon(), 1e-6);
    assertEquals(0.913871, calibration.spentAfter(2).epsilon(), 1e-6);
    assertEquals(0.965545, calibration.spentAfter(3).epsilon(), 1e-6);
    // t = n: rho = rho_max, so the whole budget, but not one ulp more.
    double full = calibration.spentAfter(4).epsilon();
    assertTrue(full <= 1 && full >= 1 - 1e-9, () -> "spent at the horizon " + full);
    assertEquals(1e-3, calibration.spentAfter(4).delta());
  }

  @Test
  void tightConversionIsTheDefault() {
    SqrtFactorizationCalibration tight = SqrtFactorizationCalibration.of(TIGHT, 1000, 1);
    SqrtFactorizationCalibration simple =
        SqrtFactorizationCalibration.of(ZcdpBudget.of(ONE_AND_ONE_IN_A_THOUSAND, ZcdpConversion.SIMPLE), 1000, 1);
    assertSame(ZcdpConversion.TIGHT, tight.conversion());
    assertEquals("zcdp-cks20-sqrt-factorization", tight.accountant());
    assertTrue(tight.noiseSigma() < 0.8 * simple.noiseSigma());
  }

  @Test
  void rhoAfterBoundsTheExactMapAndIsAtMostHalfAPercentLooser() {
    SqrtFactorizationCalibration calibration = SqrtFactorizationCalibration.of(TIGHT, 5000, 2.5);
    double perUnitNorm = 2.5 * 2.5 / (2 * calibration.noiseSigma() * calibration.noiseSigma());
    double norm = 0;
    double coefficient = 1;
    for (long t = 1; t <= 5000; t++) {
      if (t > 1) {
        coefficient = PrefixSumSquareRoot.coefficientAfter(coefficient, t - 1);
      }
      norm += coefficient * coefficient;
      double exact = perUnitNorm * norm;
      double mapped = calibration.rhoAfter(t);
      assertTrue(mapped >= exact && mapped <= exact * 1.005, "t=" + t + ": " + mapped + " vs " + exact);
      if (t <= SqrtFactorizationCalibration.EXACT_STEPS) {
        assertEquals(exact, mapped, exact * 1e-12, "t=" + t);
      }
    }
  }

  @Test
  void calibratedSigmaNeverSpendsAboveTheBudgetOverASweep() {
    for (ZcdpConversion conversion : ZcdpConversion.values()) {
      for (double epsilon : new double[] {0.1, 1, 8}) {
        for (double delta : new double[] {1e-2, 1e-6, 1e-12}) {
          for (long horizon : new long[] {1, 2, 3, 64, 65, 1000, 100_000}) {
            for (double sensitivity : new double[] {0.3, 7}) {
              PrivacyBudget budget = new PrivacyBudget(epsilon, delta);
              SqrtFactorizationCalibration calibration =
                  SqrtFactorizationCalibration.of(ZcdpBudget.of(budget, conversion), horizon, sensitivity);
              PrivacyBudget atHorizon = calibration.spentAfter(horizon);
              assertTrue(atHorizon.isWithin(budget), calibration::toString);
              assertTrue(atHorizon.epsilon() >= epsilon * (1 - 1e-9), () -> "wastes budget: " + calibration);
              assertSame(atHorizon, calibration.spentAfter(Long.MAX_VALUE), "past the horizon: the next epoch");
              assertNonDecreasing(calibration);
            }
          }
        }
      }
    }
  }

  private static void assertNonDecreasing(SqrtFactorizationCalibration calibration) {
    double previousEpsilon = 0;
    double previousRho = 0;
    for (long t = 1; t <= calibration.horizon(); t++) {
      double epsilon = calibration.spentAfter(t).epsilon();
      double rho = calibration.rhoAfter(t);
      assertTrue(epsilon >= previousEpsilon && rho >= previousRho, "t=" + t + " in " + calibration);
      previousEpsilon = epsilon;
      previousRho = rho;
    }
  }

  @Test
  void aLedgerFedWithTheMapNeverRefusesInsideTheHorizon() {
    SqrtFactorizationCalibration calibration =
        SqrtFactorizationCalibration.of(ZcdpBudget.of(new PrivacyBudget(0.5, 1e-6)), 300, 1);
    PrivacyLedger ledger = PrivacyLedger.open(calibration);
    for (long t = 1; t <= calibration.horizon(); t++) {
      ledger = ledger.reserve(calibration.spentAfter(t));
    }
    assertEquals("zcdp-cks20-sqrt-factorization", ledger.accountant());
  }

  @Test
  void rejectsWhatItCannotAccount() {
    PrivacyBudget pureDp = new PrivacyBudget(1, 0);
    assertThrows(IllegalArgumentException.class, () -> SqrtFactorizationCalibration.of(ZcdpBudget.of(pureDp), 10, 1));
    assertThrows(IllegalArgumentException.class, () -> SqrtFactorizationCalibration.of(TIGHT, 0, 1));
    assertThrows(IllegalArgumentException.class,
        () -> SqrtFactorizationCalibration.of(TIGHT, SqrtFactorizationCalibration.MAX_HORIZON + 1, 1));
    assertThrows(IllegalArgumentException.class, () -> SqrtFactorizationCalibration.of(TIGHT, 10, 0));
    assertThrows(IllegalArgumentException.class,
        () -> SqrtFactorizationCalibration.of(TIGHT, 10, Double.NaN));
    SqrtFactorizationCalibration calibration = SqrtFactorizationCalibration.of(TIGHT, 10, 1);
    assertThrows(IllegalArgumentException.class, () -> calibration.spentAfter(0));
    // Both ends of the horizon's range are accepted.
    assertEquals(1, SqrtFactorizationCalibration.of(TIGHT, 1, 1).horizon());
    assertEquals(SqrtFactorizationCalibration.MAX_HORIZON,
        SqrtFactorizationCalibration.of(TIGHT, SqrtFactorizationCalibration.MAX_HORIZON, 1).horizon());
  }
}
