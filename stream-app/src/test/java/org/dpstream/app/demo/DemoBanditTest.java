package org.dpstream.app.demo;

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
}
