package org.dpstream.core.privacy.tree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The compact tree's in-memory node noise of the lowest levels: fewer draws, the same releases. */
class CompactBinaryMechanismTest {

  private static final int D = 2;

  /** Node noise that counts its calls; the noise of a node is a function of its id. */
  private static final class CountingNoise implements NodeNoise {
    int adds;
    int subtracts;

    @Override
    public void add(long epoch, long node, long[] sum) {
      adds++;
      for (int i = 0; i < sum.length; i++) {
        sum[i] = Math.addExact(sum[i], node * 1000 + i);
      }
    }

    @Override
    public void subtract(long epoch, long node, long[] sum) {
      subtracts++;
      for (int i = 0; i < sum.length; i++) {
        sum[i] = Math.subtractExact(sum[i], node * 1000 + i);
      }
    }
  }

  /**
   * 64 steps draw 64 new nodes; merges of the cached levels 0..3 subtract from memory, so only the merges
   * of level 4 (two, at t = 32 and 64) and level 5 (one, at t = 64) regenerate a node: 3 instead of 63.
   */
  @Test
  void mergesOfTheLowestFourLevelsDrawNothing() {
    CountingNoise noise = new CountingNoise();
    CompactBinaryMechanism tree = new CompactBinaryMechanism(D, 0, noise);
    long[] release = new long[D];
    for (int t = 0; t < 64; t++) {
      tree.addAndRelease(new long[] {t, -t}, release);
    }
    assertEquals(64, noise.adds);
    assertEquals(3, noise.subtracts);
    // At t = 64 the only live node is [1, 64], id (6, 64): the release is the exact sum plus its noise.
    long node = TreeNodes.id(6, 64);
    assertArrayEquals(new long[] {2016 + node * 1000, -2016 + node * 1000 + 1}, release);
  }

  /** A step that fails at any point of the dyadic pattern (merging cached and uncached levels) changes nothing. */
  @Test
  void aFailedStepAtAnyStepLeavesTheCacheAsItWas() {
    int steps = 40;
    long[][] expected = new long[steps][D];
    CompactBinaryMechanism clean = new CompactBinaryMechanism(D, 0, new CountingNoise());
    for (int t = 0; t < steps; t++) {
      clean.addAndRelease(new long[] {t, 1}, expected[t]);
    }
    for (int failAt = 0; failAt < steps; failAt++) {
      CompactBinaryMechanism tree = new CompactBinaryMechanism(D, 0, new CountingNoise());
      long[] release = new long[D];
      for (int t = 0; t < steps; t++) {
        if (t == failAt) {
          assertThrows(ArithmeticException.class, () -> tree.addAndRelease(new long[] {Long.MAX_VALUE, 0}, new long[D]));
        }
        tree.addAndRelease(new long[] {t, 1}, release);
        assertArrayEquals(expected[t], release, "failure before t=" + (t + 1) + ", injected at " + failAt);
      }
    }
  }

  /** A restored tree's live nodes of the cached levels are in memory: the next merge draws no node again. */
  @Test
  void aRestoredTreeCachesItsLowLevelNodes() {
    CountingNoise noise = new CountingNoise();
    CompactBinaryMechanism tree = CompactBinaryMechanism.restore(0, 3, new long[D], noise);
    assertEquals(2, noise.adds, "3 = 2 + 1: two live nodes");
    tree.addAndRelease(new long[D], new long[D]); // t = 4 merges both
    assertEquals(3, noise.adds);
    assertEquals(0, noise.subtracts);
  }

  @Test
  void badArgumentsAreRefusedWithTheirValues() {
    IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
        () -> new CompactBinaryMechanism(0, 0, new CountingNoise()));
    assertTrue(zero.getMessage().contains("dimension must be positive: 0"), zero.getMessage());
    IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
        () -> CompactBinaryMechanism.restore(0, -1, new long[D], new CountingNoise()));
    assertTrue(negative.getMessage().contains("steps must be non-negative: -1"), negative.getMessage());
    CompactBinaryMechanism tree = new CompactBinaryMechanism(D, 0, new CountingNoise());
    IllegalArgumentException leaf = assertThrows(IllegalArgumentException.class,
        () -> tree.addAndRelease(new long[D + 1], new long[D]));
    assertTrue(leaf.getMessage().contains("expected dimension 2, got 3"), leaf.getMessage());
    assertThrows(IllegalArgumentException.class, () -> tree.addAndRelease(new long[D], new long[D - 1]));
    assertThrows(IllegalArgumentException.class, () -> tree.exactSum(new long[D + 1]));
    assertEquals(0, tree.steps(), "nothing refused changed the tree");
  }

  /** Restored after any step, the tree refills its cache and continues with the same releases and draws. */
  @Test
  void aRestoredTreeContinuesIdentically() {
    int steps = 70;
    long[][] expected = new long[steps][D];
    CompactBinaryMechanism straight = new CompactBinaryMechanism(D, 3, new CountingNoise());
    long[] exact = new long[D];
    for (int t = 0; t < steps; t++) {
      straight.addAndRelease(new long[] {t, 2 * t}, expected[t]);
    }
    for (int crashAfter = 1; crashAfter < steps; crashAfter += 7) {
      CompactBinaryMechanism first = new CompactBinaryMechanism(D, 3, new CountingNoise());
      long[] release = new long[D];
      for (int t = 0; t < crashAfter; t++) {
        first.addAndRelease(new long[] {t, 2 * t}, release);
      }
      first.exactSum(exact);
      CompactBinaryMechanism resumed = CompactBinaryMechanism.restore(3, crashAfter, exact, new CountingNoise());
      assertEquals(D, resumed.dimension());
      for (int t = crashAfter; t < steps; t++) {
        resumed.addAndRelease(new long[] {t, 2 * t}, release);
        assertArrayEquals(expected[t], release, "crash after " + crashAfter + ", t=" + (t + 1));
      }
    }
  }
}
