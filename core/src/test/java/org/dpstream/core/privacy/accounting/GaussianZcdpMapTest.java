package org.dpstream.core.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import org.junit.jupiter.api.Test;

/** The one Gaussian zCDP map and its calibration, on structures worked by hand and against exact arithmetic. */
class GaussianZcdpMapTest {

  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-3);

  /** Phi = 1, 2, 4 at steps 1, 2, 4 of an epoch of 4 (step 3 takes step 4's bound). */
  private static final SensitivityStructure DOUBLING =
      SensitivityStructure.of(4, new long[] {1, 2, 4}, new double[] {1, 2, 4});

  @Test
  void sigmaAndTheMapByHand() {
    // Simple conversion at (1, 1e-3): rho = (sqrt(1 + L) - sqrt(L))^2 = 0.0337869 with L = ln 1000.
    // S = 2, Phi_max = 4: sigma = 2 sqrt(4 / (2 rho)) = 2 sqrt(59.19501) = 15.38759.
    ZcdpBudget budget = ZcdpBudget.of(BUDGET, ZcdpConversion.SIMPLE);
    GaussianZcdpMap map = GaussianZcdpMap.calibrate("test", budget, 2, DOUBLING);
    assertEquals("test", map.accountant());
    assertEquals(BUDGET, map.budget());
    assertEquals(budget, map.zcdpBudget());
    assertEquals(ZcdpConversion.SIMPLE, map.conversion());
    assertEquals(4, map.horizon());
    assertEquals(0.0337869, map.rhoBudget(), 1e-7);
    assertEquals(15.38759, map.sigma(), 1e-5);
    // rho(t) = 4 Phi(t) / (2 sigma^2) = rho Phi(t) / 4.
    double rho = map.rhoBudget();
    assertEquals(rho / 4, map.rhoAfter(1), 1e-12 * rho);
    assertEquals(rho / 2, map.rhoAfter(2), 1e-12 * rho);
    assertEquals(rho, map.rhoAfter(3), 1e-12 * rho);
    assertEquals(map.rhoAfter(4), map.rhoAfter(1000), "past the last checkpoint: its bound");
    assertTrue(map.rhoAfter(4) <= rho);
    // eps = rho / 4 + 2 sqrt(rho L / 4) at t = 1: 0.0084467 + 2 sqrt(0.0583480) = 0.4915533.
    assertEquals(0.4915533, map.spentAfter(1).epsilon(), 1e-6);
    assertEquals(ZcdpConversion.SIMPLE.epsilon(map.rhoAfter(2), 1e-3), map.spentAfter(2).epsilon());
    assertEquals(1e-3, map.spentAfter(2).delta());
    assertTrue(map.spentAfter(4).isWithin(BUDGET));
    assertTrue(map.spentAfter(4).epsilon() >= 1 - 1e-9, "the whole budget, not one ulp more");
    assertTrue(map.toString().startsWith("test["), map::toString);
  }

  /** The calibration takes rho: a budget split in rho (adaptive clipping's blocks) gets sigma for that rho. */
  @Test
  void aBudgetBesideAnotherMechanismIsCalibratedForItsRhoAndPricedWithTheOther() {
    ZcdpBudget whole = ZcdpBudget.of(BUDGET);
    ZcdpBudget rest = whole.beside(0.05 * whole.rho());
    GaussianZcdpMap map = GaussianZcdpMap.calibrate("test", rest, 1, DOUBLING);
    assertEquals(Math.sqrt(4 / (2 * rest.rho())), map.sigma(), 1e-12 * map.sigma());
    assertTrue(map.rhoAfter(4) <= rest.rho());
    assertEquals(rest.spent(map.rhoAfter(2)), map.spentAfter(2));
    assertEquals(whole.spent(Rounding.tightSumUp(map.rhoAfter(2), 0.05 * whole.rho())), map.spentAfter(2));
    assertTrue(map.spentAfter(4).isWithin(BUDGET));
    assertTrue(map.spentAfter(4).epsilon() >= 1 - 1e-9);
  }

  /**
   * A participant with two leaves in the tree is in at most 2 k(t) released nodes: another Phi under the same
   * calibration, which gives sigma sqrt(2) times the tree's and the same rho at every step.
   */
  @Test
  void anotherSensitivityStructurePlugsInWithoutTouchingTheCalibration() {
    GaussianTreeCalibration tree = GaussianTreeCalibration.of(ZcdpBudget.of(BUDGET), 1000, 1);
    SensitivityStructure oneLeaf = tree.structure();
    long[] steps = new long[oneLeaf.size()];
    double[] twoLeaves = new double[oneLeaf.size()];
    for (int c = 0; c < steps.length; c++) {
      steps[c] = oneLeaf.checkpoint(c);
      twoLeaves[c] = 2 * oneLeaf.bound(c);
    }
    GaussianZcdpMap twice = GaussianZcdpMap.calibrate("two-leaves", tree.zcdpBudget(), 1,
        SensitivityStructure.of(1000, steps, twoLeaves));
    assertEquals(Math.sqrt(2) * tree.nodeSigma(), twice.sigma(), 1e-12 * twice.sigma());
    for (long t = 1; t <= 1100; t++) {
      assertEquals(tree.rhoAfter(t), twice.rhoAfter(t), 1e-12 * tree.rhoAfter(t), "t=" + t);
    }
  }

  /**
   * The calibration's guarantee for the reals, checked in exact decimal arithmetic over a sweep: sigma^2 2 rho >=
   * S^2 Phi_max (the map at the horizon is within rho), every rho(t) bounds S^2 Phi(t) / (2 sigma^2) from above, and
   * sigma exceeds the real optimum by less than 2^-40 of it.
   */
  @Test
  void sigmaAndEveryRhoBoundTheExactValuesAndWasteAlmostNothing() {
    MathContext exact = MathContext.UNLIMITED;
    for (ZcdpConversion conversion : ZcdpConversion.values()) {
      for (double epsilon : new double[] {0.1, 1, 8}) {
        for (double delta : new double[] {1e-2, 1e-6, 1e-12}) {
          for (double sensitivity : new double[] {0.3, 1, 7.000000000000001}) {
            for (SensitivityStructure structure : new SensitivityStructure[] {DOUBLING,
                SensitivityStructure.tree(new TreeHorizon(1025)),
                SensitivityStructure.of(3, new long[] {1, 3}, new double[] {1.0000000000000002, 3.3333333333333335})}) {
              ZcdpBudget budget = ZcdpBudget.of(new PrivacyBudget(epsilon, delta), conversion);
              GaussianZcdpMap map = GaussianZcdpMap.calibrate("sweep", budget, sensitivity, structure);
              BigDecimal s2 = new BigDecimal(sensitivity).pow(2);
              BigDecimal twoSigma2 = new BigDecimal(map.sigma()).pow(2).multiply(BigDecimal.valueOf(2));
              BigDecimal atHorizon = s2.multiply(new BigDecimal(structure.largestBound()), exact);
              BigDecimal budgetTimesTwoSigma2 = twoSigma2.multiply(new BigDecimal(budget.rho()), exact);
              assertTrue(atHorizon.compareTo(budgetTimesTwoSigma2) <= 0, map::toString);
              for (int c = 0; c < structure.size(); c++) {
                BigDecimal exactRho = s2.multiply(new BigDecimal(structure.bound(c)), exact);
                BigDecimal mapped = new BigDecimal(map.rhoAfter(structure.checkpoint(c))).multiply(twoSigma2, exact);
                assertTrue(mapped.compareTo(exactRho) >= 0, () -> "checkpoint in " + map);
              }
              double optimum = sensitivity * Math.sqrt(structure.largestBound() / (2 * budget.rho()));
              assertTrue(map.sigma() >= optimum * (1 - 0x1p-50), map::toString);
              assertTrue(map.sigma() <= optimum * (1 + 0x1p-40), map::toString);
              assertTrue(map.spentAfter(Long.MAX_VALUE).isWithin(budget.budget()), map::toString);
            }
          }
        }
      }
    }
  }

  @Test
  void theMapIsNonDecreasingAndALedgerFedWithItNeverRefuses() {
    GaussianZcdpMap map = GaussianZcdpMap.calibrate("ledger", ZcdpBudget.of(new PrivacyBudget(0.5, 1e-6)), 1,
        SensitivityStructure.toeplitz(300, steps -> {
          double[] bounds = new double[steps.length];
          for (int c = 0; c < steps.length; c++) {
            bounds[c] = Math.log(steps[c]) + 1;
          }
          return bounds;
        }));
    PrivacyLedger ledger = PrivacyLedger.open(map);
    double previousRho = 0;
    double previousEpsilon = 0;
    for (long t = 1; t <= map.horizon(); t++) {
      assertTrue(map.rhoAfter(t) >= previousRho && map.spentAfter(t).epsilon() >= previousEpsilon, "t=" + t);
      previousRho = map.rhoAfter(t);
      previousEpsilon = map.spentAfter(t).epsilon();
      ledger = ledger.reserve(map.spentAfter(t));
    }
    assertEquals("ledger", ledger.accountant());
    assertTrue(ledger.spentEpsilon() > 0.5 * (1 - 1e-6), ledger::toString);
  }

  @Test
  void rejectsWhatItCannotCalibrate() {
    ZcdpBudget budget = ZcdpBudget.of(BUDGET);
    for (double bad : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
      assertThrows(IllegalArgumentException.class, () -> GaussianZcdpMap.calibrate("bad", budget, bad, DOUBLING));
    }
    assertThrows(NullPointerException.class, () -> GaussianZcdpMap.calibrate(null, budget, 1, DOUBLING));
    assertThrows(NullPointerException.class, () -> GaussianZcdpMap.calibrate("bad", null, 1, DOUBLING));
    assertThrows(NullPointerException.class, () -> GaussianZcdpMap.calibrate("bad", budget, 1, null));
    GaussianZcdpMap map = GaussianZcdpMap.calibrate("ok", budget, 1, DOUBLING);
    assertThrows(IllegalArgumentException.class, () -> map.spentAfter(0));
    assertThrows(IllegalArgumentException.class, () -> map.rhoAfter(0));
  }

  @Test
  void rhoPerUnitNormBoundsHalfTheSquaredRatioFromAbove() {
    for (double[] pair : new double[][] {{1, 3}, {2, 15.38768}, {0.3, 1e6}, {7, 7}}) {
      BigDecimal ratio = new BigDecimal(pair[0]).divide(new BigDecimal(pair[1]), new MathContext(60));
      BigDecimal exactHalfSquare = ratio.pow(2).divide(BigDecimal.valueOf(2));
      double bound = GaussianZcdpMap.rhoPerUnitNorm(pair[0], pair[1]);
      assertTrue(new BigDecimal(bound).compareTo(exactHalfSquare) > 0);
      assertEquals(exactHalfSquare.doubleValue(), bound, 4 * Math.ulp(bound));
    }
  }
}
