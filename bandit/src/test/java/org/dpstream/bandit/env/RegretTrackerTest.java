package org.dpstream.bandit.env;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RegretTrackerTest {

  private static BanditRound round(double... means) {
    return new BanditRound(new double[] {1.0}, means, means);
  }

  @Test
  void handWorkedThreeRounds() {
    // Round 1: means (0.5, 0.2, 0.9), choose 0: regret 0.4. Round 2: (0.1, 0.3, 0.3), choose 2: tie with
    // the best, regret 0, optimal. Round 3: (-0.2, 0.6, 0.0), choose 2: regret 0.6. Total 1.0, 1 of 3 optimal.
    RegretTracker tracker = new RegretTracker(3);
    tracker.record(round(0.5, 0.2, 0.9), 0);
    tracker.record(round(0.1, 0.3, 0.3), 2);
    tracker.record(round(-0.2, 0.6, 0.0), 2);
    assertEquals(1.0, tracker.cumulativeRegret(), 1e-12);
    assertArrayEquals(new double[] {0.4, 0.4, 1.0}, tracker.cumulativeRegretByRound(), 1e-12);
    assertEquals(1.0 / 3, tracker.optimalChoiceRate(), 1e-12);
    assertEquals(3, tracker.rounds());
    assertThrows(IllegalStateException.class, () -> tracker.record(round(1, 0), 0));
  }

  @Test
  void theOptimalArmIsTheLowestIndexOfMaximalMean() {
    BanditRound r = round(0.3, 0.7, 0.7);
    assertEquals(1, r.optimalArm());
    assertEquals(0.4, r.regretOf(0), 1e-12);
  }
}
