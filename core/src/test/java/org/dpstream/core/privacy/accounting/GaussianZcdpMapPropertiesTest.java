package org.dpstream.core.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

/**
 * The calibration starts from the closed form sigma = S sqrt(Phi_max / (2 rho)), each operation rounded up, and
 * widens it only as far as the doubles of the map need: for any sensitivity, structure and budget.
 */
class GaussianZcdpMapPropertiesTest {

  private static final ZcdpBudget[] BUDGETS = {
      ZcdpBudget.of(new PrivacyBudget(1, 1e-3), ZcdpConversion.SIMPLE),
      ZcdpBudget.of(new PrivacyBudget(0.3, 1e-6), ZcdpConversion.SIMPLE),
      ZcdpBudget.of(new PrivacyBudget(1, 1e-5))};

  private static double closedForm(double l2Sensitivity, double largestPhi, ZcdpBudget budget) {
    return Rounding.productUp(l2Sensitivity, Rounding.sqrtUp(Rounding.quotientUp(largestPhi, 2.0 * budget.rho())));
  }

  @Property(tries = 200, seed = "3030")
  void sigmaIsTheClosedFormWidenedByAtMostAFewPartsIn2To40UntilTheMapFits(
      @ForAll @DoubleRange(min = -3, max = 3) double log10Sensitivity,
      @ForAll @DoubleRange(min = -3, max = 3) double log10FirstPhi,
      @ForAll @DoubleRange(min = 1, max = 8) double growth,
      @ForAll @IntRange(min = 0, max = 2) int budgetIndex,
      @ForAll @DoubleRange(min = 0, max = 0.5) double shareBeside) {
    double l2Sensitivity = Math.pow(10, log10Sensitivity);
    double firstPhi = Math.pow(10, log10FirstPhi);
    ZcdpBudget budget = BUDGETS[budgetIndex].beside(shareBeside * BUDGETS[budgetIndex].rho());
    SensitivityStructure structure =
        SensitivityStructure.of(3, new long[] {1, 3}, new double[] {firstPhi, firstPhi * growth});
    GaussianZcdpMap map = GaussianZcdpMap.calibrate("property", budget, l2Sensitivity, structure);
    double start = closedForm(l2Sensitivity, structure.largestBound(), budget);
    assertEquals(l2Sensitivity, map.l2Sensitivity());
    assertTrue(map.sigma() >= start, () -> map + " below the closed form " + start);
    assertTrue(map.sigma() <= start * (1 + 0x1p-40), () -> map + " far above the closed form " + start);
    assertTrue(budget.admits(map.rhoAfter(3)), map::toString);
    assertTrue(map.spentAfter(3).isWithin(budget.budget()), map::toString);
    assertTrue(map.spentAfter(1).epsilon() <= map.spentAfter(3).epsilon(), map::toString);
  }

  /**
   * An input whose closed form, as doubles, costs a little more than rho, and still does after the first nudge:
   * sigma is widened by factors 1 + 2^-52, 1 + 2^-51, ... (each product rounded up) and the first that fits is
   * taken.
   */
  @Example
  void aClosedFormThatOverspendsByRoundingIsWidenedByDoublingNudges() {
    ZcdpBudget budget = BUDGETS[0];
    double l2Sensitivity = 11.760883614070142;
    double phi = 0.26351028418937056;
    double widened = closedForm(l2Sensitivity, phi, budget);
    int nudges = 0;
    for (; !fits(widened, l2Sensitivity, phi, budget); nudges++) {
      widened = Rounding.productUp(widened, 1.0 + Math.scalb(1.0, -52 + nudges));
    }
    assertEquals(2, nudges, "the example needs two nudges");
    GaussianZcdpMap map = GaussianZcdpMap.calibrate(
        "widened", budget, l2Sensitivity, SensitivityStructure.of(1, new long[] {1}, new double[] {phi}));
    assertEquals(widened, map.sigma());
    assertTrue(budget.admits(map.rhoAfter(1)));
  }

  private static boolean fits(double sigma, double l2Sensitivity, double phi, ZcdpBudget budget) {
    return budget.admits(Rounding.productUp(GaussianZcdpMap.rhoPerUnitNorm(l2Sensitivity, sigma), phi));
  }
}
