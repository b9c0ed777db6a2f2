package org.dpstream.core.privacy.accounting;

/**
 * The shape of one binary-tree epoch (Algorithm 5 of the paper; Guha Thakurta and Smith 2013) as far as
 * accounting needs it: how many released nodes one leaf can be in.
 *
 * <p>A tree over n leaves has h = ceil(log2 n) + 1 levels, so a leaf lies in at most h nodes (proof of
 * Theorem 3.1). By step t only nodes complete by t have been released; those containing a given leaf are
 * on distinct levels 0..floor(log2 t), so a leaf has been in at most k(t) = min(h, floor(log2 t) + 1)
 * released nodes. Both are computed with integer arithmetic, never with a floating log2.
 *
 * @param capacity n, the number of leaves of one tree (at least 1)
 */
public record TreeHorizon(long capacity) {

  public TreeHorizon {
    if (capacity < 1) {
      throw new IllegalArgumentException("tree capacity must be at least 1, got " + capacity);
    }
  }

  /** h = ceil(log2 n) + 1: the most nodes a leaf lies in. */
  public int depth() {
    // ceil(log2 n) is the bit length of n - 1 (0 for n = 1).
    return (Long.SIZE - Long.numberOfLeadingZeros(capacity - 1)) + 1;
  }

  /** k(t) = min(h, floor(log2 t) + 1): the most released nodes any one leaf has been in by step t >= 1. */
  public int nodesReleasedBy(long step) {
    if (step < 1) {
      throw new IllegalArgumentException("step must be at least 1, got " + step);
    }
    int levelsCompleteByStep = Long.SIZE - Long.numberOfLeadingZeros(step); // floor(log2 t) + 1
    return Math.min(depth(), levelsCompleteByStep);
  }
}
