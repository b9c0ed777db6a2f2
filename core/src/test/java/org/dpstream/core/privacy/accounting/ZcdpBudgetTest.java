package org.dpstream.core.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class ZcdpBudgetTest {

  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-4);

  @Test
  void aModelsBudgetIsConvertedOnceToTheLargestRhoWithinIt() {
    ZcdpBudget budget = ZcdpBudget.of(BUDGET);
    assertEquals(ZcdpConversion.TIGHT, budget.conversion());
    assertEquals(ZcdpConversion.TIGHT.maxRho(1, 1e-4), budget.rho());
    assertEquals(0, budget.rhoBeside());
    assertEquals(BUDGET, budget.budget());
    assertEquals(ZcdpConversion.SIMPLE.maxRho(1, 1e-4), ZcdpBudget.of(BUDGET, ZcdpConversion.SIMPLE).rho());
    // Alone, a mechanism's cost is its own rho, priced by the conversion.
    assertEquals(budget.rho(), budget.total(budget.rho()));
    assertEquals(new PrivacyBudget(ZcdpConversion.TIGHT.epsilon(0.01, 1e-4), 1e-4), budget.spent(0.01));
    assertTrue(budget.admits(budget.rho()));
    assertFalse(budget.admits(Math.nextUp(budget.rho())));
    IllegalArgumentException pure =
        assertThrows(IllegalArgumentException.class, () -> ZcdpBudget.of(new PrivacyBudget(1, 0)));
    assertTrue(pure.getMessage().startsWith("zCDP accounting needs delta > 0"), pure::getMessage);
  }

  @Test
  void besideOthersAMechanismGetsTheRestRoundedDownAndIsPricedWithThem() {
    ZcdpBudget whole = ZcdpBudget.of(BUDGET);
    for (double share : new double[] {1e-9, 0.05, 1.0 / 3, 0.5}) {
      double others = share * whole.rho();
      ZcdpBudget rest = whole.beside(others);
      assertEquals(others, rest.rhoBeside());
      assertEquals(BUDGET, rest.budget());
      // rho' + rho_o <= rho exactly, and rho' is within two ulps of rho - rho_o.
      BigDecimal sum = new BigDecimal(rest.rho()).add(new BigDecimal(others));
      assertTrue(sum.compareTo(new BigDecimal(whole.rho())) <= 0, "share " + share);
      assertEquals(whole.rho() - others, rest.rho(), 2 * Math.ulp(whole.rho()), "share " + share);
      assertTrue(rest.total(rest.rho()) <= whole.rho());
      assertEquals(Rounding.tightSumUp(0.001, others), rest.total(0.001));
      assertEquals(whole.spent(rest.total(0.001)), rest.spent(0.001));
      assertTrue(rest.admits(rest.rho()));
      assertFalse(rest.admits(Math.nextUp(rest.rho())));
    }
    assertSame(whole, whole.beside(0));
  }

  @Test
  void beingBesideTwiceStillFitsTheWhole() {
    ZcdpBudget whole = ZcdpBudget.of(BUDGET);
    ZcdpBudget twice = whole.beside(0.1 * whole.rho()).beside(0.2 * whole.rho());
    assertEquals(Rounding.tightSumUp(0.1 * whole.rho(), 0.2 * whole.rho()), twice.rhoBeside());
    assertTrue(twice.total(twice.rho()) <= whole.rho());
    assertEquals(0.7 * whole.rho(), twice.rho(), 4 * Math.ulp(whole.rho()));
  }

  @Test
  void nothingLeftOrNoNumberIsRefused() {
    ZcdpBudget whole = ZcdpBudget.of(BUDGET);
    for (double bad : new double[] {-1e-9, Double.NaN, Double.POSITIVE_INFINITY, whole.rho(), 2 * whole.rho()}) {
      assertThrows(IllegalArgumentException.class, () -> whole.beside(bad), "rho " + bad);
    }
  }

  @Test
  void aNumberThatIsNotOneSaysSoAndNotThatItLeavesNothing() {
    ZcdpBudget whole = ZcdpBudget.of(BUDGET);
    for (double bad : new double[] {-1e-9, Double.NaN, Double.POSITIVE_INFINITY}) {
      IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> whole.beside(bad));
      assertTrue(error.getMessage().startsWith("rho of the other mechanisms must be non-negative and finite"),
          error::getMessage);
    }
  }

  /**
   * At the smallest budgets rho is subnormal, and the others' rho can leave exactly one subnormal step: the
   * rest rounded down is then 0, which is refused rather than calibrated for (an infinite sigma).
   */
  @Test
  void aRestRoundedDownToZeroIsRefusedEvenAtSubnormalRho() {
    ZcdpBudget tiny = ZcdpBudget.of(new PrivacyBudget(1e-160, 1e-5), ZcdpConversion.SIMPLE);
    assertTrue(tiny.rho() > 0 && tiny.rho() < Double.MIN_NORMAL, "subnormal: " + tiny.rho());
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> tiny.beside(Math.nextDown(tiny.rho())));
    assertTrue(error.getMessage().contains("leaves nothing"), error::getMessage);
    ZcdpBudget smallest = tiny.beside(tiny.rho() - 2 * Double.MIN_VALUE);
    assertEquals(Double.MIN_VALUE, smallest.rho());
    assertTrue(smallest.total(smallest.rho()) <= tiny.rho());
  }

  @Test
  void equalBudgetsAreEqual() {
    assertEquals(ZcdpBudget.of(BUDGET), ZcdpBudget.of(new PrivacyBudget(1, 1e-4)));
    assertEquals(ZcdpBudget.of(BUDGET).hashCode(), ZcdpBudget.of(new PrivacyBudget(1, 1e-4)).hashCode());
    assertNotEquals(ZcdpBudget.of(BUDGET).hashCode(), ZcdpBudget.of(BUDGET).beside(1e-3).hashCode());
    assertNotEquals(ZcdpBudget.of(BUDGET).hashCode(), ZcdpBudget.of(BUDGET, ZcdpConversion.SIMPLE).hashCode());
    assertNotEquals(ZcdpBudget.of(BUDGET), ZcdpBudget.of(BUDGET, ZcdpConversion.SIMPLE));
    assertNotEquals(ZcdpBudget.of(BUDGET), ZcdpBudget.of(BUDGET).beside(1e-3));
    assertNotEquals(ZcdpBudget.of(BUDGET), ZcdpBudget.of(new PrivacyBudget(1, 1e-5)));
    assertTrue(ZcdpBudget.of(BUDGET).beside(1e-3).toString().contains("beside=0.001"));
    assertFalse(ZcdpBudget.of(BUDGET).toString().contains("beside"), "a mechanism alone has nothing beside it");
  }
}
