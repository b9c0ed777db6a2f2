package org.dpstream.bandit.linear;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.hdb.NeighbouringUsersAudit;
import org.dpstream.bandit.hdb.TestRandomness;
import org.dpstream.core.online.AccountantChoice;
import org.dpstream.core.online.NoiseChoice;
import org.dpstream.core.online.PrefixSumPlan;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.audit.AuditResult;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.junit.jupiter.api.Test;

/**
 * The empirical audit of a person-level DP-Linear (docs/privacy-layer.md, "Person-level bandits"): neighbouring
 * streams differ in all k rounds of one person. K = 2, d = 2, T = 8 rounds released one by one, k = 8: every round
 * is the audited person's, on D the worst same-arm pair's first user (x = (1, 0), reward 1) and on D' its second
 * (y = (-1/2, sqrt(3) / 2), reward 1), both routed to arm 0, so that every one of the eight leaves moves by
 * Delta along one direction and the last release (the tree's root) by 8 Delta. Statistic: arm 0's last released
 * statistics projected on that direction. Calibrated for k = 8 (Phi_8 = 120 node-leaf incidences against 4 for
 * one round) it must pass at epsilon; the same policy accounted as if k = 1 (its plan) must be caught. Seeds fixed;
 * alpha = 1e-3.
 */
class DpLinearPersonLevelAuditTest {

  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-5);
  private static final int ROUNDS = 8;
  private static final int K = ROUNDS;
  private static final DpLinearSpec EVENT = new DpLinearSpec("person-audit", 2, 2, 1, 1, BUDGET, ROUNDS, 1,
      AccountantChoice.ZCDP, NoiseChoice.CONTINUOUS);
  private static final DpLinearSpec PERSON = EVENT.withParticipations(K);
  private static final KeyedNoiseSource SOURCE = TestRandomness.source(808);

  private static AuditResult audit(PrefixSumPlan plan, int runsPerInput, long seed) {
    double[] direction = DpLinearAuditTest.worstPairDirection();
    return NeighbouringUsersAudit.audit((neighbour, rng) -> {
      DpLinearPolicy policy = DpLinearPolicy.start(PERSON, plan, SOURCE.scoped(Long.toHexString(rng.nextLong())),
          true);
      for (int round = 0; round < ROUNDS; round++) {
        policy.update(new Decision(0, Decision.Phase.GREEDY, round),
            neighbour ? DpLinearAuditTest.WORST_Y : DpLinearAuditTest.WORST_X, 1);
      }
      return new double[] {DpLinearAuditTest.projection(policy.releasedStatistics(0), direction)};
    }, 1, runsPerInput, seed, BUDGET.delta())[0];
  }

  @Test
  void allKRoundsOfOnePersonPassAtEpsilonAndAccountingAsIfKWereOneIsCaught() {
    PrefixSumPlan person = PERSON.plan();
    PrefixSumPlan asIfOne = EVENT.plan();
    AuditResult calibrated = audit(person, 40_000, 11);
    AuditResult undercalibrated = audit(asIfOne, 10_000, 12);
    System.out.println("DP-Linear, 8 rounds of one person: " + calibrated);
    System.out.println("DP-Linear, 8 rounds of one person, accounted as if k = 1: " + undercalibrated);
    calibrated.assertAtMost(BUDGET.epsilon());
    assertThrows(AssertionError.class, () -> undercalibrated.assertAtMost(BUDGET.epsilon()),
        undercalibrated.toString());
  }

  @Test
  void theNoiseGrowsWithTheWorstSetOfKLeavesAndTheFactorizationByK() {
    // The tree: sigma^2 proportional to Phi_k, sum over levels of g_l(8) = 8 + 16 + 32 + 64 = 120, against 4 levels.
    double ratio = RidgeWeight.releaseNoiseStd(PERSON.plan().calibration(), ROUNDS)
        / RidgeWeight.releaseNoiseStd(EVENT.plan().calibration(), ROUNDS);
    assertEquals(Math.sqrt(120.0 / 4), ratio, 1e-9 * ratio);
    DpLinearSpec factorization = new DpLinearSpec("person-audit", 2, 2, 1, 1, BUDGET, 400, 4,
        AccountantChoice.FACTORIZATION, NoiseChoice.CONTINUOUS);
    double factorizationRatio = RidgeWeight.releaseNoiseStd(factorization.withParticipations(5).plan().calibration(), 100)
        / RidgeWeight.releaseNoiseStd(factorization.plan().calibration(), 100);
    assertEquals(5, factorizationRatio, 1e-9 * 5);
  }

  @Test
  void kIsInTheFingerprintAndTheNoiseLawOnlyAtPersonLevel() {
    assertEquals(EVENT, EVENT.withParticipations(1));
    assertArrayEquals(EVENT.fingerprint(), EVENT.withParticipations(1).fingerprint());
    assertFalse(Arrays.equals(EVENT.fingerprint(), PERSON.fingerprint()));
    assertFalse(Arrays.equals(PERSON.fingerprint(), EVENT.withParticipations(K - 1).fingerprint()));
    assertFalse(Arrays.equals(DpLinearPolicy.lawOf(EVENT, EVENT.plan()), DpLinearPolicy.lawOf(PERSON, PERSON.plan())));
  }
}
