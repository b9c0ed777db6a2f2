package org.dpstream.core.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AdaptiveClipBudgetTest {

  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-4);

  @Test
  void theBudgetSplitsIntoHistogramAndBlocksInRhoAndComposesWithinTheModelsBudget() {
    AdaptiveClipBudget split = AdaptiveClipBudget.of(ZcdpBudget.of(BUDGET), 0.05);
    double rho = ZcdpConversion.TIGHT.maxRho(1, 1e-4);
    assertEquals(rho, split.rho());
    assertEquals(BUDGET, split.budget());
    assertEquals(ZcdpConversion.TIGHT, split.conversion());
    // sigma_h = 1 / sqrt(0.05 rho), rounded up; rho_q = 2 / (2 sigma_h^2) <= 0.05 rho, within rounding.
    assertEquals(1 / Math.sqrt(0.05 * rho), split.histogramSigma(), 1e-9);
    assertTrue(split.histogramSigma() >= 1 / Math.sqrt(0.05 * rho));
    assertTrue(split.quantileRho() <= 0.05 * rho);
    assertEquals(0.05 * rho, split.quantileRho(), 1e-9 * rho);
    // rho_b is the rest, rounded down by an ulp or two and no margin: the rounded-up sum stays within rho.
    assertEquals(rho - split.quantileRho(), split.blockRho(), 3 * Math.ulp(rho));
    assertTrue(Rounding.tightSumUp(split.blockRho(), split.quantileRho()) <= rho);
    assertEquals(split.blockRho(), split.blockBudget().rho());
    assertEquals(split.quantileRho(), split.blockBudget().rhoBeside());
    assertEquals(BUDGET, split.blockBudget().budget());
    // A sample costs its block's rho plus one histogram's, converted once.
    assertEquals(ZcdpConversion.TIGHT.epsilon(Rounding.tightSumUp(split.blockRho(), split.quantileRho()), 1e-4),
        split.spent(split.blockRho()).epsilon());
    assertTrue(split.spent(split.blockRho()).epsilon() <= 1);
    assertTrue(split.spent(rho).epsilon() > 1); // the whole rho on top of the histogram would not fit
    assertEquals(ZcdpConversion.TIGHT.epsilon(split.quantileRho(), 1e-4), split.spent(0).epsilon());
    assertEquals("zcdp-cks20-adaptive-clip", split.accountant());
  }

  @Test
  void oneParticipationPricesTheHistogramAtItsReplaceOneSensitivityExactly() {
    AdaptiveClipBudget split = AdaptiveClipBudget.of(ZcdpBudget.of(BUDGET), 0.05, 1);
    // sqrt(2), rounded up, with no further rounding of a product by 1: the event-level budget's numbers
    assertEquals(Math.nextUp(Math.sqrt(2)), AdaptiveClipBudget.HISTOGRAM_SENSITIVITY);
    assertEquals(ZeroConcentratedDp.gaussianRho(AdaptiveClipBudget.HISTOGRAM_SENSITIVITY, split.histogramSigma()),
        split.quantileRho());
    assertEquals(AdaptiveClipBudget.of(ZcdpBudget.of(BUDGET), 0.05).quantileRho(), split.quantileRho());
  }

  @Test
  void kParticipationsWidenTheHistogramNoiseKTimesForTheSameHistogramRho() {
    ZcdpBudget model = ZcdpBudget.of(BUDGET);
    AdaptiveClipBudget one = AdaptiveClipBudget.of(model, 0.05, 1);
    AdaptiveClipBudget three = AdaptiveClipBudget.of(model, 0.05, 3);
    // sigma_h = k / sqrt(share rho): three times the noise for three samples' worth of moved counts
    assertEquals(3 / Math.sqrt(0.05 * model.rho()), three.histogramSigma(), 1e-9 * three.histogramSigma());
    assertTrue(three.histogramSigma() >= 3 / Math.sqrt(0.05 * model.rho()));
    // sensitivity k sqrt(2) at k times the noise: the same share of rho, never more
    assertEquals(one.quantileRho(), three.quantileRho(), 1e-9 * one.quantileRho());
    assertTrue(three.quantileRho() <= 0.05 * model.rho());
    assertTrue(Rounding.tightSumUp(three.blockRho(), three.quantileRho()) <= model.rho());
  }

  @Test
  void theShareIsTakenOfTheModelsRho() {
    ZcdpBudget model = ZcdpBudget.of(BUDGET, ZcdpConversion.SIMPLE);
    for (double share : new double[] {1e-6, 0.25, 0.5}) {
      AdaptiveClipBudget split = AdaptiveClipBudget.of(model, share);
      assertEquals(share * model.rho(), split.quantileRho(), 1e-9 * share * model.rho(), "share " + share);
      assertEquals(ZcdpConversion.SIMPLE, split.conversion());
      assertEquals("zcdp-bs16-adaptive-clip", split.accountant());
    }
  }

  @Test
  void aShareOutsideZeroToOneHalfOrNoParticipationIsRefused() {
    ZcdpBudget model = ZcdpBudget.of(BUDGET);
    for (double share : new double[] {0, -0.1, Math.nextUp(0.5), 0.51, Double.NaN}) {
      IllegalArgumentException error =
          assertThrows(IllegalArgumentException.class, () -> AdaptiveClipBudget.of(model, share), "share " + share);
      assertTrue(error.getMessage().startsWith("clip.budgetShare must be in (0, 0.5]"), error::getMessage);
    }
    for (int participations : new int[] {0, -1}) {
      IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
          () -> AdaptiveClipBudget.of(model, 0.05, participations), "k " + participations);
      assertTrue(error.getMessage().startsWith("participations must be at least 1"), error::getMessage);
    }
  }
}
