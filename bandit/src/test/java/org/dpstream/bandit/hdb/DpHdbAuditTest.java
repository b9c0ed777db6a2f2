package org.dpstream.bandit.hdb;

import static org.junit.jupiter.api.Assertions.assertThrows;

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
 * The empirical audit of core (threshold events, held-out Clopper-Pearson bounds) on DP-HDB with
 * neighbouring users whose data change which arm receives the real sample.
 *
 * <p>K = 2, d = 2, t0 = 1, T = 8. Rounds 0 and 1 are forced sampling; at round 2 (greedy) the audited
 * user on D has an oversized context and reward and is assigned arm 0, while on D' the user's context
 * sends them to arm 1 (modelled by the decision, which is a function of the user's context and public
 * releases). So arm 0 sees the real oversized sample on D and the synthetic (0, zeta(0)) on D', and arm
 * 1 the other way round: two arms' streams differ. Rounds 3..7 are ordinary users whose decisions come
 * from {@link DpHdbPolicy#decide}, so their routing depends on the releases, as in service.
 *
 * <p>Statistics: arm 0's last released theta_0 (the coordinate the oversized gradient pushes), audited
 * against the per-arm epsilon / 2; and theta_0 of arm 0 minus arm 1 (both affected arms' releases),
 * audited against the total epsilon. The broken variant runs the same recursion and noise scale without
 * clipping: the audit must catch it. alpha = 1e-3; seeds fixed, so the test is deterministic.
 */
class DpHdbAuditTest {

  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-5);
  private static final int ROUNDS = 8;
  private static final KeyedNoiseSource SOURCE = TestRandomness.source(404);
  private static final double[] ORDINARY_X = {0.3, -0.4};
  private static final double ORDINARY_REWARD = 0.2;
  private static final double[] OVERSIZED_X = {50, 0};
  private static final double OVERSIZED_REWARD = -50;
  private static final double[] NEIGHBOUR_X = {-50, 0};
  private static final double NEIGHBOUR_REWARD = 50;

  static DpHdbSpec spec(String banditId) {
    return new DpHdbSpec(banditId, 2, 2, CanonicalLink.IDENTITY, 1, 0.5, 1, BUDGET, ROUNDS, new DataBounds(1, 1));
  }

  /** One run; returns {arm 0's theta_0, arm 0's minus arm 1's theta_0}. */
  private static double[] run(EstimatorFactory arms, boolean neighbour, UniformRandomProvider rng) {
    return run(arms, 1, 1, neighbour, rng);
  }

  /**
   * One run of a bandit accounted for {@code participations} rounds of one person, the audited person's rounds being
   * 2 to 1 + {@code personRounds}; returns {arm 0's theta_0, arm 0's minus arm 1's theta_0}.
   */
  static double[] run(EstimatorFactory arms, int participations, int personRounds, boolean neighbour,
      UniformRandomProvider rng) {
    // A fresh bandit id per run gives the arms fresh noise streams under the one test key.
    DpHdbSpec spec = spec("audit-" + Long.toHexString(rng.nextLong())).withParticipations(participations);
    DpHdbPolicy policy = DpHdbPolicy.start(spec, SOURCE, arms);
    for (int round = 0; round < ROUNDS; round++) {
      if (round >= 2 && round < 2 + personRounds) {
        policy.update(new Decision(neighbour ? 1 : 0, Decision.Phase.GREEDY, round),
            neighbour ? NEIGHBOUR_X : OVERSIZED_X, neighbour ? NEIGHBOUR_REWARD : OVERSIZED_REWARD);
      } else {
        policy.update(policy.decide(ORDINARY_X), ORDINARY_X, ORDINARY_REWARD);
      }
    }
    double arm0 = policy.armParameters(0)[0];
    return new double[] {arm0, arm0 - policy.armParameters(1)[0]};
  }

  private static AuditResult[] audit(EstimatorFactory arms, int runsPerInput, long seed) {
    return NeighbouringUsersAudit.audit((neighbour, rng) -> run(arms, neighbour, rng), 2, runsPerInput, seed,
        BUDGET.delta());
  }

  @Test
  void oneArmsReleasesAndBothAffectedArmsPassWithNeighbouringUsers() {
    AuditResult[] results = audit(EstimatorFactory.PRIVATE, 40_000, 1);
    System.out.println("DP-POFW arm 0: " + results[0]);
    System.out.println("DP-POFW arms 0 and 1: " + results[1]);
    results[0].assertAtMost(spec("x").armBudget().epsilon());
    results[1].assertAtMost(BUDGET.epsilon());
  }

  @Test
  void anArmWithAThousandthOfItsNoiseIsCaught() {
    AuditResult[] results = audit(PofwArmsWithNoise.A_THOUSANDTH_OF_THE_NOISE, 10_000, 2);
    System.out.println("arm 0 with a thousandth of its noise: " + results[0]);
    assertThrows(AssertionError.class, () -> results[0].assertAtMost(spec("x").armBudget().epsilon()),
        results[0].toString());
    assertThrows(AssertionError.class, () -> results[1].assertAtMost(BUDGET.epsilon()), results[1].toString());
  }
}
