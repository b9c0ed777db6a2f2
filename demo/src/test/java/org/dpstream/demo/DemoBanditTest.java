package org.dpstream.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DemoBanditTest {

  @Test
  void regretIsReadAsAFractionOfRandomArmsRegret() {
    assertEquals("regret / random arms' regret: 0.824 (17.6 % less than uniformly random arms)",
        DemoBandit.relativeRegret(1149.54, 1394.29));
    assertEquals("regret / random arms' regret: 1.019 (1.9 % more than uniformly random arms)",
        DemoBandit.relativeRegret(1421, 1394));
    assertEquals("regret / random arms' regret: undefined (random arms had no regret)",
        DemoBandit.relativeRegret(0, 0));
  }

  @Test
  void theStepsOfTheDecisionsAreShownAtTheEndOfEachTenth() {
    java.util.List<Long> steps = new java.util.ArrayList<>();
    for (long i = 0; i < 25; i++) {
      steps.add(i / 5); // 0 0 0 0 0 1 1 ... 4
    }
    // Tenth k ends at decision floor(25 k / 10): indices 1, 4, 6, 9, 11, 14, 16, 19, 21, 24.
    assertEquals("released step the decisions were made at, after each tenth of them: 0 0 1 1 2 2 3 3 4 4",
        DemoBandit.stepsByDecile(steps));
    assertEquals("released step of the decisions: none decided", DemoBandit.stepsByDecile(java.util.List.of()));
    assertEquals("released step the decisions were made at, after each tenth of them: 7 7 7 7 7 7 7 7 7 7",
        DemoBandit.stepsByDecile(java.util.List.of(7L)));
  }
}
