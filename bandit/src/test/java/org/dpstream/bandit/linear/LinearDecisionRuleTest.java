package org.dpstream.bandit.linear;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class LinearDecisionRuleTest {

  @Test
  void choosesTheLargestScore() {
    double[][] theta = {{1, 0}, {0, 2}, {0.5, 0.5}};
    assertEquals(1, LinearDecisionRule.greedyArm(theta, 3, new double[] {1, 1}));
    assertEquals(0, LinearDecisionRule.greedyArm(theta, 3, new double[] {1, -1}));
    assertEquals(2, LinearDecisionRule.greedyArm(theta, 3, new double[] {-1, -0.5})); // scores -1, -1, -0.75
  }

  @Test
  void tiesAreBrokenByTheHashOfTheContextAndTheStep() {
    double[][] zero = new double[3][2];
    int[] counts = new int[3];
    for (int i = 0; i < 300; i++) {
      double[] x = {i * 0.01, -i * 0.02};
      int arm = LinearDecisionRule.greedyArm(zero, 0, x);
      assertEquals((int) Long.remainderUnsigned(LinearDecisionRule.tieHash(x, 0), 3), arm);
      assertEquals(arm, LinearDecisionRule.greedyArm(zero, 0, x.clone()));
      counts[arm]++;
    }
    for (int count : counts) {
      assertEquals(100, count, 30); // 300 hashes over 3 arms: binomial sd 8.2, so 30 is 3.7 sd (rate < 3e-4)
    }
    // Only the tied arms compete: arm 1 scores less than the tied arms 0 and 2.
    double[][] partly = {{1, 0}, {0, 0}, {1, 0}};
    for (int i = 1; i < 50; i++) {
      double[] x = {i, i * 0.5};
      int expected = Long.remainderUnsigned(LinearDecisionRule.tieHash(x, 7), 2) == 0 ? 0 : 2;
      assertEquals(expected, LinearDecisionRule.greedyArm(partly, 7, x));
    }
    assertEquals(LinearDecisionRule.tieHash(new double[] {0.0}, 1), LinearDecisionRule.tieHash(new double[] {-0.0}, 1));
  }

  @Test
  void refusesNonFiniteContextsAndMismatchedLengths() {
    double[][] theta = {{1, 0}, {0, 1}};
    assertThrows(IllegalArgumentException.class, () -> LinearDecisionRule.greedyArm(theta, 0, new double[] {Double.NaN, 0}));
    assertThrows(IllegalArgumentException.class, () -> LinearDecisionRule.greedyArm(theta, 0, new double[] {1}));
    assertThrows(IllegalArgumentException.class, () -> LinearDecisionRule.greedyArm(new double[0][], 0, new double[] {1}));
  }

  @Test
  void aReleaseDecidesWithTheRule() {
    DpLinearRelease release = new DpLinearRelease(4, 40, new double[][] {{0, 1}, {1, 0}});
    assertEquals(0, release.decide(new double[] {0.2, 0.9}));
    assertEquals(1, release.decide(new double[] {0.9, 0.2}));
  }
}
