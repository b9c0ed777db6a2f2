package org.dpstream.core.privacy.tree;

/**
 * Names the nodes of the binary tree over leaves 1, 2, 3, ...
 *
 * <p>The node at level l that ends at leaf e (e a multiple of 2^l) covers leaves (e - 2^l, e]. Its id
 * is 2e - 2^l = 2^l (2k - 1) for the k-th node of the level: by unique factorisation into a power of
 * two and an odd number, distinct nodes get distinct ids, and the ids of the nodes used up to leaf t
 * stay below 2t.
 */
public final class TreeNodes {

  private TreeNodes() {}

  /** The id of the level-{@code level} node ending at leaf {@code end}. */
  public static long id(int level, long end) {
    if (level < 0 || level > 62 || end <= 0 || (end & ((1L << level) - 1)) != 0) {
      throw new IllegalArgumentException("no level-" + level + " node ends at leaf " + end);
    }
    return Math.subtractExact(Math.multiplyExact(2L, end), 1L << level);
  }
}
