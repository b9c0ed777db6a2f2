package org.dpstream.bandit.linear;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.hdb.TestRandomness;
import org.dpstream.bandit.release.ReleasedBandit;
import org.dpstream.core.online.AccountantChoice;
import org.dpstream.core.online.NoiseChoice;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.junit.jupiter.api.Test;

class DpLinearDecisionRuleTest {

  private static final DpLinearSpec SPEC = new DpLinearSpec("lin", 3, 3, 1, 1, new PrivacyBudget(1, 1e-5), 2000, 10,
      AccountantChoice.ZCDP, NoiseChoice.CONTINUOUS);

  @Test
  void aDeciderHoldingTheReleaseDecidesAsThePolicyAtEveryRelease() {
    DpLinearPolicy policy = DpLinearPolicy.start(SPEC, TestRandomness.source(5));
    DpLinearDecisionRule rule = new DpLinearDecisionRule(SPEC);
    UniformRandomProvider rng = TestRandomness.bits(6);
    double[][] truth = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    int compared = 0;
    for (int round = 0; round < 600; round++) {
      double[] x = {(2 * rng.nextDouble() - 1), (2 * rng.nextDouble() - 1), (2 * rng.nextDouble() - 1)};
      Decision decision = policy.decide(x);
      double reward = truth[decision.arm()][0] * x[0] + truth[decision.arm()][1] * x[1] + truth[decision.arm()][2] * x[2];
      policy.update(decision, x, Math.max(-1, Math.min(1, reward)));
      if (policy.rounds() % SPEC.refreshEvery() == 0) {
        DpLinearRelease release = policy.currentRelease();
        ReleasedBandit released = new ReleasedBandit("lin", DpLinearPolicy.NAME, release.step(), release.theta(), Map.of());
        for (int probe = 0; probe < 5; probe++) {
          double[] context = {(2 * rng.nextDouble() - 1), (2 * rng.nextDouble() - 1), (2 * rng.nextDouble() - 1)};
          Decision fromRelease = rule.decide(released, context, () -> {
            throw new AssertionError("DP-Linear never draws the request's noise");
          });
          assertEquals(policy.decide(context).arm(), fromRelease.arm(), "round " + policy.rounds());
          assertEquals(release.step(), fromRelease.round());
          assertEquals(Decision.Phase.GREEDY, fromRelease.phase());
          compared++;
        }
      }
    }
    assertEquals(300, compared);
  }

  @Test
  void refusesAWrongContextOrAReleaseOfAnotherShape() {
    DpLinearDecisionRule rule = new DpLinearDecisionRule(SPEC);
    ReleasedBandit released = new ReleasedBandit("lin", DpLinearPolicy.NAME, 1, new double[3][3], Map.of());
    assertEquals("dp-linear", rule.algorithm());
    assertThrows(IllegalArgumentException.class, () -> rule.decide(released, new double[2], () -> null));
    assertThrows(IllegalArgumentException.class, () -> rule.decide(released, new double[] {0, Double.NaN, 0}, () -> null));
    ReleasedBandit twoArms = new ReleasedBandit("lin", DpLinearPolicy.NAME, 1, new double[2][3], Map.of());
    assertThrows(IllegalArgumentException.class, () -> rule.decide(twoArms, new double[3], () -> null));
  }
}
