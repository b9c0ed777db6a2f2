package org.dpstream.core.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SensitivityStructureTest {

  private static long[] checkpoints(SensitivityStructure structure) {
    long[] steps = new long[structure.size()];
    for (int c = 0; c < steps.length; c++) {
      steps[c] = structure.checkpoint(c);
    }
    return steps;
  }

  private static double[] bounds(SensitivityStructure structure) {
    double[] bounds = new double[structure.size()];
    for (int c = 0; c < bounds.length; c++) {
      bounds[c] = structure.bound(c);
    }
    return bounds;
  }

  @Test
  void theTreesPhiIsTheNodesALeafIsInByHand() {
    // n = 1: h = 1, one node. n = 2: h = 2. n = 3: h = 3, k(1) = 1, k(2) = k(3) = 2, k(4) = 3.
    assertArrayEquals(new long[] {1}, checkpoints(SensitivityStructure.tree(new TreeHorizon(1))));
    assertArrayEquals(new double[] {1}, bounds(SensitivityStructure.tree(new TreeHorizon(1))));
    assertArrayEquals(new long[] {1, 2}, checkpoints(SensitivityStructure.tree(new TreeHorizon(2))));
    assertArrayEquals(new double[] {1, 2}, bounds(SensitivityStructure.tree(new TreeHorizon(2))));
    SensitivityStructure three = SensitivityStructure.tree(new TreeHorizon(3));
    assertArrayEquals(new long[] {1, 3, 4}, checkpoints(three));
    assertArrayEquals(new double[] {1, 2, 3}, bounds(three));
    assertEquals(3, three.horizon());
    assertEquals(3, three.largestBound()); // h: sigma is calibrated to the whole tree's depth
    // n = 1000: h = 11; levels 1..10 end at 2^j - 1, the eleventh from 1024 on.
    SensitivityStructure thousand = SensitivityStructure.tree(new TreeHorizon(1000));
    assertEquals(11, thousand.size());
    assertEquals(1023, thousand.checkpoint(9));
    assertEquals(10, thousand.bound(9));
    assertEquals(1024, thousand.checkpoint(10));
    assertEquals(11, thousand.largestBound());
  }

  @Test
  void theTreesMapAtEveryStepIsTheNodesReleasedBy() {
    for (long capacity : new long[] {1, 2, 3, 7, 8, 9, 1000, 1024, 1025}) {
      TreeHorizon tree = new TreeHorizon(capacity);
      SensitivityStructure structure = SensitivityStructure.tree(tree);
      for (long t = 1; t <= 3 * capacity + 5; t++) {
        assertEquals(tree.nodesReleasedBy(t), structure.bound(structure.indexOf(t)), "n=" + capacity + ", t=" + t);
      }
      assertEquals(tree.depth(), structure.bound(structure.indexOf(Long.MAX_VALUE)));
    }
  }

  @Test
  void aTreeUpTo2To62LeavesIsTabulated() {
    SensitivityStructure largest = SensitivityStructure.tree(new TreeHorizon(1L << 62));
    assertEquals(63, largest.size());
    assertEquals(1L << 62, largest.checkpoint(62));
    assertEquals(63, largest.largestBound());
    IllegalArgumentException tooLarge = assertThrows(IllegalArgumentException.class,
        () -> SensitivityStructure.tree(new TreeHorizon((1L << 62) + 1)));
    assertTrue(tooLarge.getMessage().startsWith("a tree of more than 2^62 leaves"), tooLarge::getMessage);
  }

  @Test
  void aPersonWithoutParticipationsIsRefusedAsSuch() {
    for (int participations : new int[] {0, -1}) {
      IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
          () -> SensitivityStructure.tree(new TreeHorizon(8), participations));
      assertTrue(error.getMessage().startsWith("participations must be at least 1"), error::getMessage);
    }
  }

  @Test
  void toeplitzCheckpointsAreEveryStepTo64ThenAbout64ThApartAndTheHorizon() {
    SensitivityStructure five = SensitivityStructure.toeplitz(5, steps -> {
      assertArrayEquals(new long[] {1, 2, 3, 4, 5}, steps);
      return new double[] {1, 2, 3, 4, 5};
    });
    assertArrayEquals(new long[] {1, 2, 3, 4, 5}, checkpoints(five));
    SensitivityStructure thousand = SensitivityStructure.toeplitz(1000, steps -> {
      double[] bounds = new double[steps.length];
      for (int c = 0; c < steps.length; c++) {
        bounds[c] = steps[c];
      }
      return bounds;
    });
    long[] steps = checkpoints(thousand);
    for (int c = 0; c < 64; c++) {
      assertEquals(c + 1, steps[c]);
    }
    // From 64 on: t' = t + ceil(t / 64): 64, 65, 67, 69, ...
    assertEquals(65, steps[64]);
    assertEquals(67, steps[65]);
    for (int c = 65; c < steps.length - 1; c++) {
      assertEquals(steps[c - 1] + (steps[c - 1] + 63) / 64, steps[c], "checkpoint " + c);
    }
    assertEquals(1000, steps[steps.length - 1]);
    assertEquals(1000, thousand.largestBound());
    // Between checkpoints the later one's bound, past the horizon the horizon's.
    assertEquals(67, thousand.bound(thousand.indexOf(66)));
    assertEquals(1000, thousand.bound(thousand.indexOf(1001)));
    assertThrows(IllegalStateException.class, () -> SensitivityStructure.toeplitz(5, s -> new double[4]));
  }

  /** The octave-narrowed search against a plain scan, on every step of short structures and long steps. */
  @Test
  void eachStepFindsTheFirstCheckpointAtOrAfterIt() {
    SensitivityStructure toeplitz = SensitivityStructure.toeplitz(5000, steps -> {
      double[] bounds = new double[steps.length];
      Arrays.fill(bounds, 1);
      return bounds;
    });
    SensitivityStructure sparse = SensitivityStructure.of(1L << 40, new long[] {1, 2, 3, 1000, 1024, 1025, 1L << 40},
        new double[] {1, 2, 3, 4, 5, 6, 7});
    SensitivityStructure single = SensitivityStructure.of(1, new long[] {1}, new double[] {1});
    for (SensitivityStructure structure : new SensitivityStructure[] {toeplitz, sparse,
        SensitivityStructure.tree(new TreeHorizon(1L << 62)), single}) {
      List<Long> steps = new ArrayList<>();
      for (long t = 1; t <= 6000; t++) {
        steps.add(t);
      }
      for (int octave = 1; octave < 63; octave++) {
        steps.add((1L << octave) - 1);
        steps.add(1L << octave);
        steps.add((1L << octave) + 1);
      }
      steps.add(Long.MAX_VALUE);
      for (long t : steps) {
        int expected = structure.size() - 1;
        for (int c = 0; c < structure.size(); c++) {
          if (structure.checkpoint(c) >= t) {
            expected = c;
            break;
          }
        }
        assertEquals(expected, structure.indexOf(t), structure + ", t=" + t);
      }
    }
  }

  @Test
  void boundsAreMadeNonDecreasing() {
    SensitivityStructure structure = SensitivityStructure.of(4, new long[] {1, 2, 4}, new double[] {2, 1, 3});
    assertArrayEquals(new double[] {2, 2, 3}, bounds(structure));
  }

  @Test
  void aStructureMustCoverEveryStepWithPositiveFiniteBounds() {
    assertThrows(IllegalArgumentException.class, () -> SensitivityStructure.of(0, new long[] {1}, new double[] {1}));
    assertThrows(IllegalArgumentException.class, () -> SensitivityStructure.of(1, new long[0], new double[0]));
    assertThrows(IllegalArgumentException.class, () -> SensitivityStructure.of(2, new long[] {1, 2}, new double[] {1}));
    assertThrows(IllegalArgumentException.class, () -> SensitivityStructure.of(2, new long[] {2}, new double[] {1}));
    assertThrows(IllegalArgumentException.class,
        () -> SensitivityStructure.of(3, new long[] {1, 2}, new double[] {1, 2}));
    assertThrows(IllegalArgumentException.class,
        () -> SensitivityStructure.of(3, new long[] {1, 3, 3}, new double[] {1, 2, 3}));
    for (double bad : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
      assertThrows(IllegalArgumentException.class,
          () -> SensitivityStructure.of(1, new long[] {1}, new double[] {bad}));
    }
    SensitivityStructure one = SensitivityStructure.of(1, new long[] {1}, new double[] {1});
    assertThrows(IllegalArgumentException.class, () -> one.indexOf(0));
    // refused before the strategy is asked for any bound
    IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
        () -> SensitivityStructure.toeplitz(0, s -> fail("asked for bounds at steps " + Arrays.toString(s))));
    assertTrue(empty.getMessage().startsWith("horizon must be at least 1"), empty::getMessage);
  }

  @Test
  void theStructureKeepsItsOwnCopies() {
    long[] steps = {1, 2};
    double[] bounds = {1, 2};
    SensitivityStructure structure = SensitivityStructure.of(2, steps, bounds);
    steps[1] = 9;
    bounds[1] = 9;
    assertEquals(2, structure.checkpoint(1));
    assertEquals(2, structure.bound(1));
  }

  /**
   * The largest squared norm of the sum of the columns of {@code leaves} cut to the nodes complete by step t, over
   * every set of k leaves of the full tree of 2^(h-1) leaves: sum over complete nodes of (chosen leaves in it)^2.
   */
  private static long bruteForcePhi(int depth, int k, long step) {
    int leaves = 1 << (depth - 1);
    long best = 0;
    for (int set = 0; set < 1 << leaves; set++) {
      if (Integer.bitCount(set) != k) {
        continue;
      }
      long phi = 0;
      for (int level = 0; level < depth; level++) {
        int size = 1 << level;
        for (int start = 0; start + size <= Math.min(leaves, step); start += size) {
          long inNode = Integer.bitCount(set & (int) (((1L << size) - 1) << start));
          phi += inNode * inNode;
        }
      }
      best = Math.max(best, phi);
    }
    return best;
  }

  @Test
  void aPersonsPhiOnTheTreeIsTheWorstSetOfKLeavesByBruteForce() {
    for (long capacity : new long[] {1, 2, 3, 4, 5, 8, 9, 16}) {
      TreeHorizon tree = new TreeHorizon(capacity);
      int fullLeaves = 1 << (tree.depth() - 1);
      for (int k = 1; k <= Math.min(fullLeaves, 6); k++) {
        SensitivityStructure structure = SensitivityStructure.tree(tree, k);
        // over the whole tree the bound is exact: an aligned block of k leaves fills every level at once
        assertEquals(bruteForcePhi(tree.depth(), k, fullLeaves), structure.largestBound(), "n=" + capacity + ", k=" + k);
        for (long t = 1; t <= fullLeaves && fullLeaves <= 8; t++) {
          long worst = bruteForcePhi(tree.depth(), k, t);
          assertTrue(structure.bound(structure.indexOf(t)) >= worst, "n=" + capacity + ", k=" + k + ", t=" + t);
        }
      }
    }
  }

  /**
   * More participations than the tree has leaves (a short epoch of a person-level model): the root level, like
   * every other, holds floor(k / 2^l) full nodes and the rest, so the bound stays the sum of g_l(k) over the
   * tree's own levels, at least the brute force's worst with every leaf changed.
   */
  @Test
  void moreParticipationsThanLeavesSumTheTreesOwnLevels() {
    // n = 2, h = 2, k = 3: g_0(3) = 3, g_1(3) = 4 + 1 = 5
    SensitivityStructure threeInTwo = SensitivityStructure.tree(new TreeHorizon(2), 3);
    assertEquals(3 + 5, threeInTwo.largestBound());
    assertTrue(threeInTwo.largestBound() >= bruteForcePhi(2, 2, 2));
    // n = 4, h = 3, k = 5: g_0 = 5, g_1 = 2 * 4 + 1 = 9, g_2 = 16 + 1 = 17
    assertEquals(5 + 9 + 17, SensitivityStructure.tree(new TreeHorizon(4), 5).largestBound());
  }

  @Test
  void oneParticipationIsTheOneLeafStructureBitForBit() {
    for (long capacity : new long[] {1, 3, 1000, 1L << 20, 1L << 62}) {
      TreeHorizon tree = new TreeHorizon(capacity);
      assertArrayEquals(bounds(SensitivityStructure.tree(tree)), bounds(SensitivityStructure.tree(tree, 1)));
      assertArrayEquals(checkpoints(SensitivityStructure.tree(tree)), checkpoints(SensitivityStructure.tree(tree, 1)));
    }
  }

  @Test
  void aPersonsPhiIsBelowKSquaredTimesTheDepthAndAboveKTimesIt() {
    // n = 2^20, h = 21, k = 5: levels 0, 1, 2 hold 5, 9 and 17; the 18 levels from 8 leaves up hold 25 each.
    SensitivityStructure five = SensitivityStructure.tree(new TreeHorizon(1L << 20), 5);
    assertEquals(5 + 9 + 17 + 18 * 25, five.largestBound());
    assertTrue(five.largestBound() < 25 * 21);
    // a person's j <= k leaves cost at most j / k of Phi_k at every step: epochs and blocks add up to one Phi_k
    for (int k = 2; k <= 20; k++) {
      SensitivityStructure whole = SensitivityStructure.tree(new TreeHorizon(1000), k);
      for (int j = 1; j < k; j++) {
        SensitivityStructure part = SensitivityStructure.tree(new TreeHorizon(1000), j);
        for (int c = 0; c < part.size(); c++) {
          assertTrue(part.bound(c) * k <= whole.largestBound() * j, "j=" + j + ", k=" + k);
        }
      }
    }
  }
}
