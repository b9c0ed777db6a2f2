package org.dpstream.bandit.linear;

import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.commons.rng.UniformRandomProvider;
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
 * The empirical audit of core on DP-Linear's release with neighbouring users whose data change which
 * arm's statistics receive their contribution (docs/bandit-privacy.md, "DP-Linear").
 *
 * <p>K = 2, d = 2, k = 1 (a release every round), T = 6. At round 2 the audited user on D has an oversized
 * context (50, 0) and reward 50 and is routed to arm 0; on D' the neighbour's context (-50, 0), reward -50,
 * routes them to arm 1 (the routing is a function of the user's context and the public releases). So
 * both arms' statistics differ. The other rounds are ordinary users decided by {@link DpLinearPolicy#decide}
 * from the releases, as in service. Statistics: arm 0's last released moment b_0 = sum x_0 r (one arm),
 * and arm 0's b_0 minus arm 1's (both affected arms; the raw release, not the ridge solution, which
 * only post-processes it and would hide a leak behind the ridge shrinkage), each audited against the whole epsilon, which both arms are
 * calibrated to. The negative control runs the same mechanism without clipping the contribution: the
 * audit must catch it. alpha = 1e-3; seeds fixed, so the test is deterministic.
 */
class DpLinearAuditTest {

  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-5);
  private static final int ROUNDS = 6;
  private static final DpLinearSpec SPEC = new DpLinearSpec("audit", 2, 2, 1, 1, BUDGET, ROUNDS, 1,
      AccountantChoice.ZCDP, NoiseChoice.CONTINUOUS);
  private static final PrefixSumPlan PLAN = SPEC.plan();
  private static final KeyedNoiseSource SOURCE = TestRandomness.source(505);
  private static final double[] ORDINARY_X = {0.3, -0.4};
  private static final double ORDINARY_REWARD = 0.2;
  private static final double[] OVERSIZED_X = {50, 0};
  private static final double[] NEIGHBOUR_X = {-50, 0};
  private static final double OVERSIZED_REWARD = 50;
  private static final double NEIGHBOUR_REWARD = -50;
  /** b_0, the first moment coordinate, in the leaf layout (svec(G) has 3 entries at d = 2). */
  private static final int MOMENT_0 = 3;

  /** One run; returns {arm 0's released b_0, arm 0's minus arm 1's released b_0}. */
  private static double[] run(boolean clipping, boolean neighbour, UniformRandomProvider rng) {
    // A fresh scope per run gives the arms fresh noise streams under the one test key.
    DpLinearPolicy policy = DpLinearPolicy.start(SPEC, PLAN, SOURCE.scoped(Long.toHexString(rng.nextLong())), clipping);
    for (int round = 0; round < ROUNDS; round++) {
      if (round == 2) {
        policy.update(new Decision(neighbour ? 1 : 0, Decision.Phase.GREEDY, round),
            neighbour ? NEIGHBOUR_X : OVERSIZED_X, neighbour ? NEIGHBOUR_REWARD : OVERSIZED_REWARD);
      } else {
        policy.update(policy.decide(ORDINARY_X), ORDINARY_X, ORDINARY_REWARD);
      }
    }
    double arm0 = policy.releasedStatistics(0)[MOMENT_0];
    return new double[] {arm0, arm0 - policy.releasedStatistics(1)[MOMENT_0]};
  }

  private static AuditResult[] audit(boolean clipping, int runsPerInput, long seed) {
    return NeighbouringUsersAudit.audit((neighbour, rng) -> run(clipping, neighbour, rng), 2, runsPerInput, seed,
        BUDGET.delta());
  }

  @Test
  void oneArmAndBothAffectedArmsPassWithNeighbouringUsers() {
    AuditResult[] results = audit(true, 40_000, 1);
    System.out.println("DP-Linear arm 0: " + results[0]);
    System.out.println("DP-Linear arms 0 and 1: " + results[1]);
    results[0].assertAtMost(BUDGET.epsilon());
    results[1].assertAtMost(BUDGET.epsilon());
  }

  /**
   * The pair of users that attains the sensitivity Delta the mechanism is calibrated for (docs/bandit-privacy.md,
   * "What one user changes"): c = B = 1, both routed to arm 0, x = (1, 0) and y = (-cos a, sin a) with
   * cos a = B^2 / (2 c^2) = 1/2, both with reward 1, so ||v - v'||^2 = 2 (1 - 1/4) + 2 (1 + 1/2) = 4.5 = Delta^2,
   * the Gram part included. Statistic: arm 0's released leaf projected on v - v' (the most powerful statistic for
   * a Gaussian mechanism). It must pass at epsilon; the same policy on a plan calibrated for Delta / 16 (the plan of
   * c = B = 1/4; Delta is proportional to c^2 when B = c) must be caught.
   */
  @Test
  void theWorstSameArmPairPassesAndAnUndercalibratedMechanismIsCaught() {
    DpLinearSpec loose = new DpLinearSpec("audit-sixteenth", 2, 2, 0.25, 0.25, BUDGET, ROUNDS, 1, AccountantChoice.ZCDP,
        NoiseChoice.CONTINUOUS);
    AuditResult calibrated = worstPairAudit(PLAN, 40_000, 3);
    AuditResult undercalibrated = worstPairAudit(loose.plan(), 10_000, 4);
    System.out.println("DP-Linear worst same-arm pair: " + calibrated);
    System.out.println("DP-Linear worst same-arm pair, plan for Delta / 16: " + undercalibrated);
    calibrated.assertAtMost(BUDGET.epsilon());
    assertThrows(AssertionError.class, () -> undercalibrated.assertAtMost(BUDGET.epsilon()),
        undercalibrated.toString());
  }

  /** The worst same-arm pair's first context (reward 1). */
  static final double[] WORST_X = {1, 0};
  /** The worst same-arm pair's second context (reward 1). */
  static final double[] WORST_Y = {-0.5, Math.sqrt(0.75)};

  /** v - v': the worst pair's difference of contributions to a leaf at d = 2, the audited direction. */
  static double[] worstPairDirection() {
    double[] v = new double[DpLinearSpec.leafDimension(2)];
    double[] w = new double[v.length];
    SufficientStatistics.contribution(WORST_X, 1, v);
    SufficientStatistics.contribution(WORST_Y, 1, w);
    double[] direction = new double[v.length];
    for (int i = 0; i < v.length; i++) {
      direction[i] = v[i] - w[i];
    }
    return direction;
  }

  /** The released statistics projected on {@code direction}: the most powerful statistic of a Gaussian shift. */
  static double projection(double[] released, double[] direction) {
    double projection = 0;
    for (int i = 0; i < released.length; i++) {
      projection += released[i] * direction[i];
    }
    return projection;
  }

  private static AuditResult worstPairAudit(PrefixSumPlan plan, int runsPerInput, long seed) {
    double[] x = WORST_X;
    double[] y = WORST_Y;
    double[] direction = worstPairDirection();
    return NeighbouringUsersAudit.audit((neighbour, rng) -> {
      DpLinearPolicy policy = DpLinearPolicy.start(SPEC, plan, SOURCE.scoped(Long.toHexString(rng.nextLong())), true);
      for (int round = 0; round < ROUNDS; round++) {
        if (round == 2) {
          policy.update(new Decision(0, Decision.Phase.GREEDY, round), neighbour ? y : x, 1);
        } else {
          policy.update(policy.decide(ORDINARY_X), ORDINARY_X, ORDINARY_REWARD);
        }
      }
      return new double[] {projection(policy.releasedStatistics(0), direction)};
    }, 1, runsPerInput, seed, BUDGET.delta())[0];
  }

  @Test
  void statisticsWithoutClippingAreCaught() {
    AuditResult[] results = audit(false, 10_000, 2);
    System.out.println("DP-Linear unclipped arm 0: " + results[0]);
    System.out.println("DP-Linear unclipped arms 0 and 1: " + results[1]);
    assertThrows(AssertionError.class, () -> results[0].assertAtMost(BUDGET.epsilon()), results[0].toString());
    assertThrows(AssertionError.class, () -> results[1].assertAtMost(BUDGET.epsilon()), results[1].toString());
  }
}
