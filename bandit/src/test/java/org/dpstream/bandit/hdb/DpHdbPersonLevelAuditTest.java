package org.dpstream.bandit.hdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpstream.bandit.Decision;
import org.dpstream.core.loss.CanonicalLink;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.online.EstimatorFactory;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.audit.AuditResult;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
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
  private static final int ROUNDS = 8;
  private static final int K = 4;
  private static final KeyedNoiseSource SOURCE = TestRandomness.source(4040);
  private static final double[] ORDINARY_X = {0.3, -0.4};
  private static final double ORDINARY_REWARD = 0.2;
  private static final double[] OVERSIZED_X = {50, 0};
  private static final double OVERSIZED_REWARD = -50;
  private static final double[] NEIGHBOUR_X = {-50, 0};
  private static final double NEIGHBOUR_REWARD = 50;

  private static DpHdbSpec spec(String banditId, int participations) {
    return new DpHdbSpec(banditId, 2, 2, CanonicalLink.IDENTITY, 1, 0.5, 1, BUDGET, ROUNDS, new DataBounds(1, 1))
        .withParticipations(participations);
  }

  private static double[] run(int participations, boolean neighbour, UniformRandomProvider rng) {
    DpHdbPolicy policy = DpHdbPolicy.start(spec("person-audit-" + Long.toHexString(rng.nextLong()), participations),
        SOURCE, EstimatorFactory.PRIVATE);
    for (int round = 0; round < ROUNDS; round++) {
      if (round >= 2 && round < 2 + K) {
        policy.update(new Decision(neighbour ? 1 : 0, Decision.Phase.GREEDY, round),
            neighbour ? NEIGHBOUR_X : OVERSIZED_X, neighbour ? NEIGHBOUR_REWARD : OVERSIZED_REWARD);
      } else {
        policy.update(policy.decide(ORDINARY_X), ORDINARY_X, ORDINARY_REWARD);
      }
    }
    double arm0 = policy.armParameters(0)[0];
    return new double[] {arm0, arm0 - policy.armParameters(1)[0]};
  }

  private static AuditResult[] audit(int participations, int runsPerInput, long seed) {
    return NeighbouringUsersAudit.audit((neighbour, rng) -> run(participations, neighbour, rng), 2, runsPerInput, seed,
        BUDGET.delta());
  }

  @Test
  void allKRoundsOfOnePersonPass() {
    AuditResult[] calibrated = audit(K, 40_000, 21);
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
        assertEquals(-1, new java.math.BigDecimal(part.epsilon()).multiply(java.math.BigDecimal.valueOf(m))
            .compareTo(new java.math.BigDecimal(total.epsilon()).add(java.math.BigDecimal.valueOf(1e-300))));
        assertEquals(true, new java.math.BigDecimal(part.delta()).multiply(java.math.BigDecimal.valueOf(m))
            .compareTo(new java.math.BigDecimal(total.delta())) <= 0);
      }
    }
    assertEquals(JointDpCalibration.armBudget(total, 3), JointDpCalibration.armBudget(total, 3, 1),
        "k = 1 is the event-level split");
  }

  @Test
  void kIsInTheFingerprintAndTheArmsNoiseLawOnlyAtPersonLevel() {
    DpHdbSpec event = new DpHdbSpec("b", 2, 2, CanonicalLink.IDENTITY, 1, 0.5, 1, BUDGET, ROUNDS, new DataBounds(1, 1));
    assertEquals(event, event.withParticipations(1));
    assertArrayEquals(event.fingerprint(), event.withParticipations(1).fingerprint());
    assertFalse(Arrays.equals(event.fingerprint(), event.withParticipations(K).fingerprint()));
    assertFalse(Arrays.equals(DpHdbPolicy.lawOf(event), DpHdbPolicy.lawOf(event.withParticipations(K))));
    assertEquals(K, event.withParticipations(K).armSpec(1).participations());
  }
}
