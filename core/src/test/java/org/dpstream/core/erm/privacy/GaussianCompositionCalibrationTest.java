package org.dpstream.core.erm.privacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.ZcdpConversion;
import org.junit.jupiter.api.Test;

class GaussianCompositionCalibrationTest {

  @Test
  void dpCdTheoremOneWorkedExample() {
    // Worked by hand: n = 10 000, eps = 1, delta = 1e-8, T K = 3000:
    // sigma_j = (2 C_j / n) sqrt(3 T K ln(1/delta)) / eps = 0.0814336851 C_j.
    GaussianCompositionCalibration calibration =
        GaussianCompositionCalibration.of(new PrivacyBudget(1.0, 1e-8), 3000, ZcdpRule.PAPER_CLOSED_FORM);
    double sigma = calibration.sigmaFor(2.0 / 10_000);
    assertEquals(0.0814336851, sigma, 1e-9);
    assertTrue(sigma >= 0.08143368509298135, "rounded up");
    // rho = T K / (2 z^2) = eps^2 / (6 ln(1/delta)) = 0.0090478017 (Corollary 2).
    assertEquals(0.0090478017, calibration.totalRho(), 1e-9);
  }

  @Test
  void itsPrivacyMapChargesRhoPerMechanismUpToTheHorizon() {
    // The worked example above as a map: rho(t) = t / (2 z^2), rho(3000) = 0.0090478017, rho(1000) a third.
    PrivacyBudget budget = new PrivacyBudget(1.0, 1e-8);
    GaussianCompositionCalibration map = GaussianCompositionCalibration.of(budget, 3000, ZcdpRule.PAPER_CLOSED_FORM);
    assertEquals(3000, map.horizon());
    assertEquals(budget, map.budget());
    assertEquals("paper-thm1-zcdp(replace-one; spent by zcdp-cks20)", map.accountant());
    assertEquals(ZcdpConversion.TIGHT, map.conversion());
    assertEquals(map.totalRho(), map.rhoAfter(3000));
    assertEquals(0.0090478017 / 3, map.rhoAfter(1000), 1e-10);
    assertEquals(0.0090478017 / 3000, map.rhoAfter(1), 1e-13);
    assertTrue(map.rhoAfter(1) >= 1 / (2 * map.noiseMultiplier() * map.noiseMultiplier()), "rounded up");
    assertEquals(map.spent(), map.spentAfter(3000));
    // the paper's closed form is conservative: its total rho stated by the tight conversion is 0.714, below the
    // simple conversion rho + 2 sqrt(rho ln(1/delta)) = 0.0090478 + 2 sqrt(0.0090478 x 18.42068) = 0.82553
    assertEquals(ZcdpConversion.TIGHT.epsilon(map.totalRho(), 1e-8), map.spentAfter(3000).epsilon());
    assertTrue(map.spentAfter(3000).epsilon() < 0.82553 && map.spentAfter(3000).epsilon() > 0.71,
        map.spentAfter(3000)::toString);
    PrivacyBudget third = map.spentAfter(1000);
    assertEquals(ZcdpConversion.TIGHT.epsilon(map.rhoAfter(1000), 1e-8), third.epsilon());
    assertEquals(1e-8, third.delta());
    // rho + 2 sqrt(rho ln(1/delta)) = 0.47442 bounds the tight conversion of rho = 0.0030159 from above
    assertTrue(third.epsilon() < 0.47442 && third.epsilon() > 0.4, third::toString);
    assertThrows(IllegalArgumentException.class, () -> map.spentAfter(0));
    assertThrows(IllegalArgumentException.class, () -> map.rhoAfter(3001));
    assertTrue(map.describe().startsWith("paper-thm1-zcdp(m=3000, z="), map.describe());
  }

  @Test
  void theNoiseMultiplierFollowsEachRuleExactly() {
    // paper: z = sqrt(3 m ln(1/delta)) / eps = sqrt(300 x 11.512925) / 0.5 = 117.5394 at m = 100, eps = 0.5
    GaussianCompositionCalibration paper =
        GaussianCompositionCalibration.of(new PrivacyBudget(0.5, 1e-5), 100, ZcdpRule.PAPER_CLOSED_FORM);
    assertEquals(117.53940, paper.noiseMultiplier(), 1e-4);
    // tight: z = sqrt(m / (2 rho_max)), so the m mechanisms spend exactly rho_max (up to rounding, never above)
    PrivacyBudget budget = new PrivacyBudget(2.0, 1e-6);
    GaussianCompositionCalibration tight = GaussianCompositionCalibration.of(budget, 50, ZcdpRule.TIGHT);
    double rhoMax = ZcdpConversion.TIGHT.maxRho(2.0, 1e-6);
    assertEquals(rhoMax, tight.totalRho(), 1e-10 * rhoMax);
    assertTrue(tight.totalRho() <= rhoMax, "never above the budget's rho");
    assertTrue(tight.spent().isWithin(budget));
    // the closed form's premises: delta > 0, delta < 1/3 and epsilon <= 1, at the boundaries
    assertThrows(IllegalArgumentException.class,
        () -> GaussianCompositionCalibration.of(new PrivacyBudget(1, 0), 10, ZcdpRule.TIGHT));
    assertThrows(IllegalArgumentException.class,
        () -> GaussianCompositionCalibration.of(new PrivacyBudget(1, 1.0 / 3), 10, ZcdpRule.PAPER_CLOSED_FORM));
    assertThrows(IllegalArgumentException.class,
        () -> GaussianCompositionCalibration.of(new PrivacyBudget(Math.nextUp(1.0), 1e-5), 10, ZcdpRule.PAPER_CLOSED_FORM));
    assertThrows(IllegalArgumentException.class,
        () -> GaussianCompositionCalibration.of(new PrivacyBudget(1, 1e-5), 0, ZcdpRule.TIGHT));
    assertEquals(1, GaussianCompositionCalibration.of(new PrivacyBudget(1, 1e-5), 1, ZcdpRule.TIGHT).horizon());
  }

  @Test
  void dpSgdsPrivacyMapIsTheSubsampledGaussianAccountantOfItsFirstSteps() {
    // q = 1 (every record in every step): R(alpha) = alpha / (2 z^2) and the classic conversion gives
    // eps(t) = min over the orders of t alpha / (2 z^2) + ln(1/delta) / (alpha - 1), computed here independently.
    PrivacyBudget budget = new PrivacyBudget(2.0, 1e-5);
    SubsampledGaussianCalibration map = SubsampledGaussianCalibration.of(1.0, 40, budget, RdpConversion.CLASSIC);
    assertEquals("rdp-poisson-gaussian(add/remove)/mironov17", map.accountant());
    assertEquals(40, map.horizon());
    assertEquals(budget, map.budget());
    double z = map.noiseMultiplier();
    for (long t : new long[] {1, 10, 40}) {
      double best = Double.POSITIVE_INFINITY;
      for (int alpha : SubsampledGaussianRdp.orders()) {
        best = Math.min(best, t * alpha / (2 * z * z) + Math.log(1e5) / (alpha - 1));
      }
      assertEquals(best, map.spentAfter(t).epsilon(), 1e-7 * best, "t = " + t);
      assertTrue(map.spentAfter(t).epsilon() >= best, "rounded up");
      assertEquals(1e-5, map.spentAfter(t).delta());
    }
    assertTrue(map.spentAfter(40).epsilon() <= 2.0);
    assertTrue(map.spentAfter(40).epsilon() > 1.999, "the smallest z: the budget is nearly used");
    assertThrows(IllegalArgumentException.class, () -> map.spentAfter(41));
    assertTrue(map.describe().startsWith("rdp-poisson-gaussian(add/remove, q=1.00000, z=") && map.describe().contains("S=40"),
        map.describe());
  }

  @Test
  void dpSkgdTheoremFourOneWorkedExample() {
    // Worked by hand: L_U = 1, K = 100, T = 1, n = 1000, eps = 1, delta = 1e-5: sigma = 0.1175394000.
    GaussianCompositionCalibration calibration =
        GaussianCompositionCalibration.of(new PrivacyBudget(1.0, 1e-5), 100, ZcdpRule.PAPER_CLOSED_FORM);
    assertEquals(0.1175394000, calibration.sigmaFor(2.0 / 1000), 1e-9);
    assertEquals(58.7697, calibration.noiseMultiplier(), 1e-4);
  }

  @Test
  void theClosedFormIsConservativeAndTheTightRuleAddsLessNoise() {
    PrivacyBudget budget = new PrivacyBudget(1.0, 1e-5);
    GaussianCompositionCalibration paper =
        GaussianCompositionCalibration.of(budget, 100, ZcdpRule.PAPER_CLOSED_FORM);
    GaussianCompositionCalibration tight = GaussianCompositionCalibration.of(budget, 100, ZcdpRule.TIGHT);
    // Simple conversion of rho = eps^2/(6 ln(1/delta)): rho + 2 sqrt(rho ln(1/delta)) = 0.830973 at eps = 1,
    // delta = 1e-5 (the paper's value); the tight CKS20 conversion reported by spent() is lower still.
    assertTrue(paper.spent().epsilon() < 0.830973, paper.describe());
    assertTrue(tight.noiseMultiplier() < paper.noiseMultiplier());
    assertTrue(tight.spent().epsilon() <= 1.0);
  }

  @Test
  void theClosedFormRejectsBudgetsOutsideItsProof() {
    assertThrows(IllegalArgumentException.class, () ->
        GaussianCompositionCalibration.of(new PrivacyBudget(2.0, 1e-5), 10, ZcdpRule.PAPER_CLOSED_FORM));
    assertThrows(IllegalArgumentException.class, () ->
        GaussianCompositionCalibration.of(new PrivacyBudget(0.5, 0.0), 10, ZcdpRule.TIGHT));
  }
}
