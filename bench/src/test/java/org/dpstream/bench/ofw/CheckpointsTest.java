package org.dpstream.bench.ofw;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The log-spaced checkpoints of the ofw trajectories. */
class CheckpointsTest {

  @Test
  void checkpointsAreLogSpacedDistinctAndCoverTheHorizon() {
    int[] steps = Checkpoints.logSpaced(10000, 50);
    assertEquals(1, steps[0]);
    assertEquals(10000, steps[steps.length - 1]);
    for (int i = 1; i < steps.length; i++) {
      assertTrue(steps[i] > steps[i - 1]);
    }
    assertTrue(steps.length > 40 && steps.length <= 50, "got " + steps.length);
    assertArrayEquals(new int[] {1, 2, 3}, Checkpoints.logSpaced(3, 50));
  }
}
