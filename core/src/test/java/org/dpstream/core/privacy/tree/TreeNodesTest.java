package org.dpstream.core.privacy.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TreeNodesTest {

  @Test
  void idsOfAllNodesOfATreeAreDistinctAndBelowTwiceTheirEnd() {
    Set<Long> ids = new HashSet<>();
    int leaves = 1 << 12;
    for (int level = 0; level <= 12; level++) {
      for (long end = 1L << level; end <= leaves; end += 1L << level) {
        long id = TreeNodes.id(level, end);
        assertTrue(ids.add(id), "duplicate id " + id);
        assertTrue(id > 0 && id < 2 * end, "id " + id + " for end " + end);
      }
    }
    assertEquals(2 * leaves - 1, ids.size()); // a full binary tree over 2^12 leaves
  }

  @Test
  void onlyNodesThatExistHaveIds() {
    assertThrows(IllegalArgumentException.class, () -> TreeNodes.id(1, 3)); // level-1 nodes end at even leaves
    assertThrows(IllegalArgumentException.class, () -> TreeNodes.id(0, 0));
    assertThrows(IllegalArgumentException.class, () -> TreeNodes.id(-1, 4));
    assertThrows(IllegalArgumentException.class, () -> TreeNodes.id(63, 1L << 62));
  }

  /** Level 62's only node, over 2^62 leaves, would have id 2^63: it overflows loudly instead of wrapping negative. */
  @Test
  void idsStopAtTheLongRange() {
    assertEquals(1L << 61, TreeNodes.id(61, 1L << 61));
    assertThrows(ArithmeticException.class, () -> TreeNodes.id(62, 1L << 62));
  }
}
