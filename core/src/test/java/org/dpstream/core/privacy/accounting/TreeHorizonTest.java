package org.dpstream.core.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class TreeHorizonTest {

  @Test
  void depthIsCeilLog2PlusOne() {
    assertEquals(1, new TreeHorizon(1).depth()); // ceil(log2 1) = 0
    assertEquals(2, new TreeHorizon(2).depth()); // 1 + 1
    assertEquals(3, new TreeHorizon(3).depth()); // ceil(1.58) = 2
    assertEquals(11, new TreeHorizon(1000).depth()); // 2^9 = 512 < 1000 <= 1024 = 2^10
    assertEquals(11, new TreeHorizon(1024).depth()); // exactly 2^10
    assertEquals(12, new TreeHorizon(1025).depth());
    assertEquals(64, new TreeHorizon(Long.MAX_VALUE).depth()); // ceil(log2(2^63 - 1)) = 63
  }

  @Test
  void releasedNodesGrowWithFloorLog2AndStopAtDepth() {
    TreeHorizon tree = new TreeHorizon(1000); // h = 11
    assertEquals(1, tree.nodesReleasedBy(1)); // floor(log2 1) + 1
    assertEquals(2, tree.nodesReleasedBy(2));
    assertEquals(2, tree.nodesReleasedBy(3));
    assertEquals(3, tree.nodesReleasedBy(4));
    assertEquals(10, tree.nodesReleasedBy(1000)); // floor(log2 1000) = 9
    assertEquals(11, tree.nodesReleasedBy(1024)); // floor(log2 1024) = 10
    assertEquals(11, tree.nodesReleasedBy(1L << 40)); // capped at h
  }

  @Test
  void rejectsNonPositiveCapacityAndStep() {
    assertThrows(IllegalArgumentException.class, () -> new TreeHorizon(0));
    assertThrows(IllegalArgumentException.class, () -> new TreeHorizon(8).nodesReleasedBy(0));
  }
}
