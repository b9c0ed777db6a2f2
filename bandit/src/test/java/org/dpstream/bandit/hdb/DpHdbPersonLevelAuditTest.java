package org.dpstream.bandit.hdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Arrays;
import org.dpstream.core.online.EstimatorFactory;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.audit.AuditResult;
import org.junit.jupiter.api.Test;

/**
 * The empirical audit of a person-level DP-HDB (docs/privacy-layer.md, "Person-level bandits"): neighbouring streams
 * differ in all k = 4 rounds of one person. K = 2, d = 2, t0 = 1, T = 8: rounds 2 to 5 are the person's, on D with an
 * oversized context and reward assigned arm 0, on D' the opposite ones assigned arm 1, so both arms' streams differ in
 * four samples each; the other rounds are ordinary users decided from the releases. Statistics as in
 * {@code DpHdbAuditTest}: arm 0's last theta_0 against the arm's epsilon, arm 0's minus arm 1's against the whole
 * epsilon. Calibrated for k = 4 they pass. The negative control (accounting as if k = 1) is DP-Linear's
 * ({@code DpLinearPersonLevelAuditTest}): at this size DP-HDB's iterates take a handful of values (vertices of the
 * l1 ball mixed by the Frank-Wolfe steps), and a threshold on them does not separate even the under-calibrated
 * arms, so it would not show the audit's power. Seeds fixed; alpha = 1e-3.
 */
class DpHdbPersonLevelAuditTest {

  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-5);
  private static final int K = 4;

  private static DpHdbSpec spec(String banditId, int participations) {
    return DpHdbAuditTest.spec(banditId).withParticipations(participations);
  }

  @Test
  void allKRoundsOfOnePersonPass() {
    AuditResult[] calibrated = NeighbouringUsersAudit.audit(
        (neighbour, rng) -> DpHdbAuditTest.run(EstimatorFactory.PRIVATE, K, K, neighbour, rng), 2, 40_000, 21,
        BUDGET.delta());
    System.out.println("DP-HDB, 4 rounds of one person, arm 0: " + calibrated[0]);
    System.out.println("DP-HDB, 4 rounds of one person, arms 0 and 1: " + calibrated[1]);
    calibrated[0].assertAtMost(spec("x", K).armBudget().epsilon());
    calibrated[1].assertAtMost(BUDGET.epsilon());
  }

  @Test
  void kRoundsReachAtMostTwoKArmsAndTheSplitIsOverThem() {
    assertEquals(2, JointDpCalibration.affectedArms(5, 1));
    assertEquals(4, JointDpCalibration.affectedArms(5, 2));
    assertEquals(5, JointDpCalibration.affectedArms(5, 3));
    assertEquals(2, JointDpCalibration.affectedArms(2, 10), "two arms, however many rounds");
    PrivacyBudget total = new PrivacyBudget(1, 1e-5);
    for (int arms = 1; arms <= 9; arms++) {
      for (int k = 1; k <= 6; k++) {
        PrivacyBudget part = JointDpCalibration.armBudget(total, arms, k);
        int m = JointDpCalibration.affectedArms(arms, k);
        // m parts, added exactly, stay within the total
        assertTrue(new BigDecimal(part.epsilon()).multiply(BigDecimal.valueOf(m))
            .compareTo(new BigDecimal(total.epsilon())) <= 0, arms + " arms, k = " + k);
        assertTrue(new BigDecimal(part.delta()).multiply(BigDecimal.valueOf(m))
            .compareTo(new BigDecimal(total.delta())) <= 0, arms + " arms, k = " + k);
      }
    }
    assertEquals(JointDpCalibration.armBudget(total, 3), JointDpCalibration.armBudget(total, 3, 1),
        "k = 1 is the event-level split");
  }

  @Test
  void kIsInTheFingerprintAndTheArmsNoiseLawOnlyAtPersonLevel() {
    DpHdbSpec event = DpHdbAuditTest.spec("b");
    assertEquals(event, event.withParticipations(1));
    assertArrayEquals(event.fingerprint(), event.withParticipations(1).fingerprint());
    assertFalse(Arrays.equals(event.fingerprint(), event.withParticipations(K).fingerprint()));
    assertFalse(Arrays.equals(DpHdbPolicy.lawOf(event), DpHdbPolicy.lawOf(event.withParticipations(K))));
    assertEquals(K, event.withParticipations(K).armSpec(1).participations());
  }
}
