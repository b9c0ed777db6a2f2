package org.dpstream.bandit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.dpstream.bandit.hdb.DpHdbPolicy;
import org.dpstream.bandit.linear.DpLinearPolicy;
import org.dpstream.bandit.linear.DpLinearSpec;
import org.junit.jupiter.api.Test;

class DefaultPolicyTest {

  /** DP-Linear wherever its statistics fit, d (d + 3) / 2 <= 2^20, i.e. up to d = 1446; DP-HDB beyond. */
  @Test
  void dpLinearWhereItsStatisticsFitAndDpHdbBeyond() {
    assertEquals(1_047_627, DpLinearSpec.leafDimension(1446));
    assertEquals(1_049_075, DpLinearSpec.leafDimension(1447));
    for (int d : new int[] {1, 10, 49, 50, 200, 1000, 1446}) {
      for (int arms : new int[] {1, 2, 10}) {
        for (double epsilon : new double[] {0.1, 1, 8}) {
          assertEquals(DpLinearPolicy.NAME, DefaultPolicy.nameFor(d, arms, 100_000, epsilon), "d=" + d);
        }
      }
    }
    assertEquals(DpHdbPolicy.NAME, DefaultPolicy.nameFor(1447, 5, 10_000, 1));
    assertEquals(DpHdbPolicy.NAME, DefaultPolicy.nameFor(100_000, 2, 1_000_000, 0.5));
  }

  @Test
  void refusesSpecsThatAreNoBandit() {
    assertThrows(IllegalArgumentException.class, () -> DefaultPolicy.nameFor(0, 2, 100, 1));
    assertThrows(IllegalArgumentException.class, () -> DefaultPolicy.nameFor(5, 0, 100, 1));
    assertThrows(IllegalArgumentException.class, () -> DefaultPolicy.nameFor(5, 2, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> DefaultPolicy.nameFor(5, 2, 100, Double.NaN));
  }
}
