package org.dpstream.core.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class GaussianTreeCalibrationTest {

  private static final PrivacyBudget ONE_AND_ONE_IN_A_THOUSAND = new PrivacyBudget(1, 1e-3);

  @Test
  void simpleConversionByHand() {
    // n = 1000 -> h = 11; S = 1; eps = 1, delta = 1e-3, L = ln 1000 = 6.907755
    // rho_max = (sqrt(7.907755) - sqrt(6.907755))^2 = (2.812073 - 2.628261)^2 = 0.0337869
    // sigma = S sqrt(h / (2 rho_max)) = sqrt(11 / 0.0675739) = sqrt(162.7854) = 12.75871
    GaussianTreeCalibration calibration =
        GaussianTreeCalibration.of(ZcdpBudget.of(ONE_AND_ONE_IN_A_THOUSAND, ZcdpConversion.SIMPLE), 1000, 1);
    assertEquals("zcdp-bs16", calibration.accountant());
    assertEquals(0.0337869, calibration.rhoBudget(), 1e-7);
    assertEquals(12.75871, calibration.nodeSigma(), 1e-5);
    // t = 1: one node: rho = 1 / (2 * 162.7854) = 0.00307154
    assertEquals(0.00307154, calibration.rhoAfter(1), 1e-8);
    // t = 1000: 10 nodes: rho = 0.0307154; eps = 0.0307154 + 2 sqrt(0.0307154 * 6.907755)
    //                                          = 0.0307154 + 2 * 0.460624 = 0.951963
    assertEquals(0.0307154, calibration.rhoAfter(1000), 1e-7);
    assertEquals(0.951963, calibration.spentAfter(1000).epsilon(), 1e-6);
    assertEquals(1e-3, calibration.spentAfter(1000).delta());
    // t = 1024: all 11 nodes: rho = rho_max, eps at the budget but not above it
    double full = calibration.spentAfter(1024).epsilon();
    assertTrue(full <= 1 && full >= 1 - 1e-9, () -> "spent at h nodes " + full);
  }

  @Test
  void tightConversionIsTheDefaultAndNeedsLessNoise() {
    GaussianTreeCalibration tight = GaussianTreeCalibration.of(ZcdpBudget.of(ONE_AND_ONE_IN_A_THOUSAND), 1000, 1);
    GaussianTreeCalibration simple =
        GaussianTreeCalibration.of(ZcdpBudget.of(ONE_AND_ONE_IN_A_THOUSAND, ZcdpConversion.SIMPLE), 1000, 1);
    assertEquals(ZcdpConversion.TIGHT, tight.conversion());
    assertEquals("zcdp-cks20", tight.accountant());
    // sigma scales with 1/sqrt(rho_max): 12.7587 * sqrt(0.0337869 / rho_tight) with rho_tight about 0.0594
    assertTrue(tight.nodeSigma() < 0.8 * simple.nodeSigma());
    assertTrue(tight.spentAfter(1 << 20).isWithin(ONE_AND_ONE_IN_A_THOUSAND));
  }

  @Test
  void muchLessNoiseThanEquation32AtTheSamePrivacy() {
    // Same l2 setting for both: q = 2 (kappa = 1), leaf sensitivity 10. eq. (3.2) pays h^2 in the variance,
    // zCDP pays h: sigma ratio about sqrt(h) times the conversion gain.
    PaperTreeCalibration paper = PaperTreeCalibration.of(
        ONE_AND_ONE_IN_A_THOUSAND, 1000, NormRegularity.forDualExponent(2, 5), 10);
    GaussianTreeCalibration zcdp = GaussianTreeCalibration.of(ZcdpBudget.of(ONE_AND_ONE_IN_A_THOUSAND), 1000, 10);
    assertTrue(zcdp.nodeSigma() < paper.nodeSigma() / 4,
        () -> "zcdp " + zcdp.nodeSigma() + " vs paper " + paper.nodeSigma());
  }

  @Test
  void calibratedSigmaNeverSpendsAboveTheBudgetOverASweep() {
    for (ZcdpConversion conversion : ZcdpConversion.values()) {
      for (double epsilon : new double[] {0.1, 1, 8}) {
        for (double delta : new double[] {1e-2, 1e-6, 1e-12}) {
          for (long horizon : new long[] {1, 2, 3, 1000, 1025, 1_000_000}) {
            for (double sensitivity : new double[] {0.3, 7}) {
              PrivacyBudget budget = new PrivacyBudget(epsilon, delta);
              GaussianTreeCalibration calibration =
                  GaussianTreeCalibration.of(ZcdpBudget.of(budget, conversion), horizon, sensitivity);
              PrivacyBudget atHorizon = calibration.spentAfter(horizon);
              PrivacyBudget allNodes = calibration.spentAfter(Long.MAX_VALUE);
              assertTrue(atHorizon.isWithin(budget) && allNodes.isWithin(budget), calibration::toString);
              assertTrue(allNodes.epsilon() >= epsilon * (1 - 1e-9), () -> "wastes budget: " + calibration);
              assertNonDecreasing(calibration);
            }
          }
        }
      }
    }
  }

  private static void assertNonDecreasing(GaussianTreeCalibration calibration) {
    double previous = 0;
    for (int level = 0; level < 63; level++) {
      double spent = calibration.spentAfter(1L << level).epsilon();
      assertTrue(spent >= previous, calibration::toString);
      assertTrue(calibration.spentAfter((1L << level) + 1).epsilon() >= spent);
      previous = spent;
    }
  }

  @Test
  void moreBudgetMeansLessNoiseAndALongerHorizonMore() {
    double base = GaussianTreeCalibration.of(ZcdpBudget.of(ONE_AND_ONE_IN_A_THOUSAND), 1000, 1).nodeSigma();
    assertTrue(GaussianTreeCalibration.of(ZcdpBudget.of(new PrivacyBudget(2, 1e-3)), 1000, 1).nodeSigma() < base);
    assertTrue(GaussianTreeCalibration.of(ZcdpBudget.of(new PrivacyBudget(1, 1e-2)), 1000, 1).nodeSigma() < base);
    assertEquals(base, GaussianTreeCalibration.of(ZcdpBudget.of(ONE_AND_ONE_IN_A_THOUSAND), 1024, 1).nodeSigma());
    assertTrue(GaussianTreeCalibration.of(ZcdpBudget.of(ONE_AND_ONE_IN_A_THOUSAND), 1025, 1).nodeSigma() > base);
    assertTrue(GaussianTreeCalibration.of(ZcdpBudget.of(ONE_AND_ONE_IN_A_THOUSAND), 1000, 2).nodeSigma() > base);
  }

  @Test
  void rejectsPureDpAndBadSensitivity() {
    assertThrows(IllegalArgumentException.class,
        () -> GaussianTreeCalibration.of(ZcdpBudget.of(new PrivacyBudget(1, 0)), 1000, 1));
    assertThrows(IllegalArgumentException.class,
        () -> GaussianTreeCalibration.of(ZcdpBudget.of(ONE_AND_ONE_IN_A_THOUSAND), 1000, 0));
    assertThrows(IllegalArgumentException.class,
        () -> GaussianTreeCalibration.of(ZcdpBudget.of(ONE_AND_ONE_IN_A_THOUSAND), 0, 1));
  }

  @Test
  void modelsWithTheSameBudgetHorizonAndSensitivityShareOneCalibrationAndNoOtherDoes() {
    ZcdpBudget budget = ZcdpBudget.of(ONE_AND_ONE_IN_A_THOUSAND);
    GaussianTreeCalibration shared = GaussianTreeCalibration.of(budget, 777, 0.5);
    assertSame(shared, GaussianTreeCalibration.of(ZcdpBudget.of(ONE_AND_ONE_IN_A_THOUSAND), 777, 0.5));
    GaussianTreeCalibration[] others = {
        GaussianTreeCalibration.of(ZcdpBudget.of(new PrivacyBudget(1, 1e-4)), 777, 0.5),
        GaussianTreeCalibration.of(ZcdpBudget.of(ONE_AND_ONE_IN_A_THOUSAND, ZcdpConversion.SIMPLE), 777, 0.5),
        GaussianTreeCalibration.of(budget, 778, 0.5),
        GaussianTreeCalibration.of(budget, 777, Math.nextUp(0.5)),
        GaussianTreeCalibration.of(budget, 777, 0.5, 2)};
    for (GaussianTreeCalibration other : others) {
      assertNotSame(shared, other);
      assertTrue(other.sigma() != shared.sigma() || other.rhoBudget() != shared.rhoBudget()
          || other.horizon() != shared.horizon() || other.l2Sensitivity() != shared.l2Sensitivity(), other::toString);
    }
  }
}
