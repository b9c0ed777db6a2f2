package org.dpstream.bandit.baseline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.dpstream.bandit.Decision;
import org.ejml.simple.SimpleMatrix;
import org.junit.jupiter.api.Test;

class BaselinePoliciesTest {

  @Test
  void greedyRidgeHoldsTheExactRidgeSolutionOfEachArm() {
    GreedyRidgePolicy policy = new GreedyRidgePolicy(2, 3);
    double[][] contexts = {{1, 0, 2}, {0.5, -1, 0}, {0, 3, 1}, {2, 2, -1}, {-1, 0.5, 0.25}};
    double[] rewards = {1, -0.5, 2, 0.25, 3};
    SimpleMatrix gram = SimpleMatrix.identity(3);
    SimpleMatrix moment = new SimpleMatrix(3, 1);
    for (int i = 0; i < contexts.length; i++) {
      policy.update(new Decision(1, Decision.Phase.GREEDY, i), contexts[i], rewards[i]);
      SimpleMatrix x = new SimpleMatrix(3, 1, true, contexts[i]);
      gram = gram.plus(x.mult(x.transpose()));
      moment = moment.plus(x.scale(rewards[i]));
    }
    SimpleMatrix expected = gram.solve(moment);
    double[] theta = policy.armParameters(1);
    for (int j = 0; j < 3; j++) {
      assertEquals(expected.get(j), theta[j], 1e-12);
      assertEquals(0, policy.armParameters(0)[j]);
    }
    assertEquals(5, policy.rounds());
  }

  @Test
  void uniformRandomSpreadsOverTheArmsAndIsSeeded() {
    UniformRandomPolicy a = new UniformRandomPolicy(4, 2, 11);
    UniformRandomPolicy b = new UniformRandomPolicy(4, 2, 11);
    int[] counts = new int[4];
    for (int i = 0; i < 4000; i++) {
      int arm = a.decide(new double[2]).arm();
      assertEquals(arm, b.decide(new double[2]).arm());
      counts[arm]++;
    }
    for (int count : counts) {
      assertEquals(1000, count, 120); // binomial sd 27: 120 is 4.4 sd (two-sided rate < 1e-5 per arm)
    }
  }

  @Test
  void bothBaselinesRejectAnEmptyShapeAndCountTheirRounds() {
    assertThrows(IllegalArgumentException.class, () -> new GreedyRidgePolicy(0, 3));
    assertThrows(IllegalArgumentException.class, () -> new GreedyRidgePolicy(2, 0));
    assertThrows(IllegalArgumentException.class, () -> new UniformRandomPolicy(0, 3, 1));
    assertThrows(IllegalArgumentException.class, () -> new UniformRandomPolicy(2, 0, 1));
    UniformRandomPolicy random = new UniformRandomPolicy(3, 2, 5);
    assertEquals(3, random.arms());
    assertEquals(2, random.dimension());
    for (int i = 0; i < 7; i++) {
      Decision decision = random.decide(new double[2]);
      assertEquals(i, decision.round());
      random.update(decision, new double[2], 1);
    }
    assertEquals(7, random.rounds());
  }
}
