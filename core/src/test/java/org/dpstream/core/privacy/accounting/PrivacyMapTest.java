package org.dpstream.core.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The ledger of a whole run ({@link PrivacyLedger#forRun}) and the one-shot map, on hand-computed values. */
class PrivacyMapTest {

  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-5);

  @Test
  void aRunReservesItsWholeCostBeforeAnythingIsReleased() {
    PrivacyLedger ledger = PrivacyLedger.forRun(new FixedCostCalibration("one-shot", BUDGET, new PrivacyBudget(0.25, 1e-6)));
    assertEquals(0.25, ledger.spentEpsilon());
    assertEquals(1e-6, ledger.spentDelta());
    assertEquals(BUDGET, ledger.budget());
    assertEquals("one-shot", ledger.accountant());
    assertEquals(1, ledger.horizon());
    assertEquals(0, ledger.epoch());
  }

  @Test
  void aRunReservesAtItsHorizonNotAtAnEarlierStep() {
    // spentAfter(t) = (t / 10, 0): a run of horizon 7 costs 0.7, not spentAfter(1) or spentAfter(6)
    PrivacyCalibration linear = new PrivacyCalibration() {
      @Override public String accountant() { return "linear"; }
      @Override public PrivacyBudget budget() { return BUDGET; }
      @Override public long horizon() { return 7; }
      @Override public PrivacyBudget spentAfter(long step) { return new PrivacyBudget(step / 10.0, 0); }
    };
    PrivacyLedger ledger = PrivacyLedger.forRun(linear);
    assertEquals(0.7, ledger.spentEpsilon());
    assertEquals(0, ledger.spentDelta());
    assertEquals(7, ledger.horizon());
  }

  @Test
  void aRunCostingOneUlpOverItsBudgetIsRefused() {
    FixedCostCalibration over =
        new FixedCostCalibration("given-sigma", BUDGET, new PrivacyBudget(Math.nextUp(1.0), 1e-5));
    PrivacyBudgetExceededException refused =
        assertThrows(PrivacyBudgetExceededException.class, () -> PrivacyLedger.forRun(over));
    assertEquals(over.cost(), refused.requested());
    assertTrue(refused.getMessage().contains("given-sigma"), refused::getMessage);
    FixedCostCalibration deltaOver =
        new FixedCostCalibration("given-sigma", BUDGET, new PrivacyBudget(0.5, Math.nextUp(1e-5)));
    assertThrows(PrivacyBudgetExceededException.class, () -> PrivacyLedger.forRun(deltaOver));
    PrivacyLedger atBudget = PrivacyLedger.forRun(new FixedCostCalibration("at", BUDGET, BUDGET));
    assertEquals(1, atBudget.spentEpsilon());
  }

  @Test
  void aOneShotMapHasOneStep() {
    FixedCostCalibration map = new FixedCostCalibration("one-shot", BUDGET, new PrivacyBudget(0.5, 0));
    assertEquals(1, map.horizon());
    assertEquals(new PrivacyBudget(0.5, 0), map.spentAfter(1));
    assertThrows(IllegalArgumentException.class, () -> map.spentAfter(2));
    assertThrows(IllegalArgumentException.class, () -> map.spentAfter(0));
  }

  @Test
  void aLedgerFromItsPartsKeepsThemAndChecksTheBudget() {
    PrivacyLedger ledger = PrivacyLedger.of(BUDGET, "joint", 50, 3, 0.5, 2e-6);
    assertEquals(BUDGET, ledger.budget());
    assertEquals("joint", ledger.accountant());
    assertEquals(50, ledger.horizon());
    assertEquals(3, ledger.epoch());
    assertEquals(0.5, ledger.spentEpsilon());
    assertEquals(2e-6, ledger.spentDelta());
    assertEquals(ledger, PrivacyLedger.fromBytes(ledger.toBytes()));
    assertThrows(IllegalArgumentException.class, () -> PrivacyLedger.of(BUDGET, "joint", 50, 3, Math.nextUp(1.0), 0));
    assertThrows(IllegalArgumentException.class, () -> PrivacyLedger.of(BUDGET, "joint", 50, 3, 0.5, 2e-5));
  }
}
