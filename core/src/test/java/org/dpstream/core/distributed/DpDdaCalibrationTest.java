package org.dpstream.core.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpstream.core.distributed.DpDdaAccountant.NoiseConstant;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyBudgetExceededException;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.junit.jupiter.api.Test;

/** DP-DDA's privacy map and the ledger a run reserves, on the hand-worked chain of {@link DpDdaAccountantTest}. */
class DpDdaCalibrationTest {

  private static final DpDdaAccountant ACCOUNTANT = DpDdaAccountant.of(1, 100, 0.1, 0.01, 400_000);

  @Test
  void theLedgerReservesTheChainsGuaranteeForAllRounds() {
    double sigma = ACCOUNTANT.calibrateSigma(0.5, NoiseConstant.PROOF_CLOSES);
    DpDdaCalibration map = DpDdaCalibration.of(ACCOUNTANT, sigma, 0.5, "dp-dda-theorem1/proof-closes/active-set-hidden");
    assertEquals(400_000, map.horizon());
    assertEquals(sigma, map.sigma());
    // (0.20565458444, 0.98392436796) after T rounds (worked by hand in DpDdaAccountantTest); delta is the chain's
    assertEquals(0.20565458444, map.spentAfter(400_000).epsilon(), 1e-9);
    assertEquals(0.98392436796, map.spentAfter(400_000).delta(), 1e-9);
    assertEquals(new PrivacyBudget(0.5, map.report().delta()), map.budget());
    PrivacyLedger ledger = PrivacyLedger.forRun(map);
    assertEquals(0.20565458444, ledger.spentEpsilon(), 1e-9);
    assertEquals("dp-dda-theorem1/proof-closes/active-set-hidden", ledger.accountant());
    // after one round: eps'_t = 1.9334588693e-4 composed once (KOV15's linear term: k eps), slack sqrt(eps'^2) = eps'
    PrivacyBudget first = map.spentAfter(1);
    assertEquals(ACCOUNTANT.reportAfter(sigma, 0.5, 1).epsilon(), first.epsilon());
    assertEquals(1.9334588693e-4, first.epsilon(), 1e-12);
    assertTrue(first.delta() < map.spentAfter(400_000).delta());
  }

  @Test
  void theoremOnesStatedConstantMissesItsTargetAndTheRunIsRefused() {
    // with c = 32 the chain gives eps = 0.5183845 > 0.5 (DpDdaAccountantTest): this run used to publish anyway
    double sigma = ACCOUNTANT.calibrateSigma(0.5, NoiseConstant.AS_STATED);
    DpDdaCalibration map = DpDdaCalibration.of(ACCOUNTANT, sigma, 0.5, "dp-dda-theorem1/as-stated/active-set-hidden");
    PrivacyBudgetExceededException refused =
        assertThrows(PrivacyBudgetExceededException.class, () -> PrivacyLedger.forRun(map));
    assertEquals(0.51838447624, refused.requested().epsilon(), 1e-9);
  }

  @Test
  void aChainWhoseDeltaReachesOneIsNoGuarantee() {
    DpDdaAccountant shortRun = DpDdaAccountant.of(1, 10, 0.5, 0.01, 100);
    assertEquals(1.0, shortRun.report(0.5, 1.0).delta());
    assertThrows(IllegalArgumentException.class, () -> DpDdaCalibration.of(shortRun, 0.5, 1.0, "dda"));
  }
}
