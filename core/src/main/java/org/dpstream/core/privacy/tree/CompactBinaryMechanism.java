package org.dpstream.core.privacy.tree;

import java.util.Arrays;

/**
 * The binary mechanism with O(d) state: the exact prefix sum S_t and the sum N_t of the noise of the
 * nodes in the dyadic decomposition of [1, t].
 *
 * <p>When t becomes t + 1, the nodes of t's trailing one-bits merge into one node at the level of t +
 * 1's lowest set bit: their noise is regenerated and subtracted, the new node's noise added. That is
 * one more node draw than merged nodes, two on average. Because node noise is a function of the key
 * and the node, N_t need not be stored: {@link #restore} recomputes it from t. Lattice arithmetic
 * makes every release bit-identical to {@link BinaryMechanism}'s.
 *
 * <p>The noise of the live nodes of the lowest {@link #CACHED_LEVELS} levels is also kept in memory (never
 * in a snapshot), so a merge subtracts it instead of drawing it again: 1 + 2^-4 node draws per step on
 * average instead of two, for 5 d more longs. The releases are the same either way (lattice sums are
 * exact); only the work differs.
 */
public final class CompactBinaryMechanism implements PrefixSumTree {

  private final int dimension;
  private final long epoch;
  private final NodeNoise noise;
  private final long[] exactSum;
  private final long[] noiseSum;
  /** Where a step is computed before it is committed, so that a failed step changes nothing. */
  private final long[] nextExactSum;
  private final long[] nextNoiseSum;
  /** nodeNoise[l] is the noise of the live level-l node when cached[l]; levels below CACHED_LEVELS only. */
  private final long[][] nodeNoise;
  private final boolean[] cached;
  /** The new node's noise before the step commits. */
  private long[] newNodeNoise;
  private long steps;

  /** Levels whose live node's noise is kept: level l merges every 2^(l+1) steps. */
  static final int CACHED_LEVELS = 4;

  public CompactBinaryMechanism(int dimension, long epoch, NodeNoise noise) {
    if (dimension <= 0) {
      throw new IllegalArgumentException("dimension must be positive: " + dimension);
    }
    this.dimension = dimension;
    this.epoch = epoch;
    this.noise = noise;
    this.exactSum = new long[dimension];
    this.noiseSum = new long[dimension];
    this.nextExactSum = new long[dimension];
    this.nextNoiseSum = new long[dimension];
    this.nodeNoise = new long[CACHED_LEVELS][dimension];
    this.cached = new boolean[CACHED_LEVELS];
    this.newNodeNoise = new long[dimension];
  }

  /**
   * The tree after {@code steps} leaves whose exact sum is {@code exactSum}, as from a snapshot; the
   * noise sum is regenerated (popcount(steps) node draws).
   */
  public static CompactBinaryMechanism restore(long epoch, long steps, long[] exactSum, NodeNoise noise) {
    if (steps < 0) {
      throw new IllegalArgumentException("steps must be non-negative: " + steps);
    }
    CompactBinaryMechanism tree = new CompactBinaryMechanism(exactSum.length, epoch, noise);
    System.arraycopy(exactSum, 0, tree.exactSum, 0, exactSum.length);
    tree.steps = steps;
    for (long rest = steps; rest != 0; rest &= rest - 1) {
      int level = Long.numberOfTrailingZeros(rest);
      // The level-l node of the decomposition of [1, t] ends at t with its bits below l cleared.
      long end = steps & -(1L << level);
      if (level < CACHED_LEVELS) {
        noise.add(epoch, TreeNodes.id(level, end), tree.nodeNoise[level]);
        tree.cached[level] = true;
        LatticeVectors.addInto(tree.noiseSum, tree.nodeNoise[level]);
      } else {
        noise.add(epoch, TreeNodes.id(level, end), tree.noiseSum);
      }
    }
    return tree;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public long steps() {
    return steps;
  }

  @Override
  public void addAndRelease(long[] leaf, long[] release) {
    LatticeVectors.checkDimension(leaf, dimension);
    long next = Math.addExact(steps, 1);
    LatticeVectors.sumInto(exactSum, leaf, nextExactSum);
    System.arraycopy(noiseSum, 0, nextNoiseSum, 0, dimension);
    int newLevel = Long.numberOfTrailingZeros(next);
    for (int level = 0; level < newLevel; level++) {
      if (level < CACHED_LEVELS && cached[level]) {
        LatticeVectors.subtractFrom(nextNoiseSum, nodeNoise[level]);
      } else {
        long end = steps & -(1L << level);
        noise.subtract(epoch, TreeNodes.id(level, end), nextNoiseSum);
      }
    }
    boolean cacheNew = newLevel < CACHED_LEVELS;
    if (cacheNew) {
      Arrays.fill(newNodeNoise, 0);
      noise.add(epoch, TreeNodes.id(newLevel, next), newNodeNoise);
      LatticeVectors.addInto(nextNoiseSum, newNodeNoise);
    } else {
      noise.add(epoch, TreeNodes.id(newLevel, next), nextNoiseSum);
    }
    LatticeVectors.sumInto(nextExactSum, nextNoiseSum, release);
    // Commit: nothing above changed the tree's state, so a failed step left it as it was.
    System.arraycopy(nextExactSum, 0, exactSum, 0, dimension);
    System.arraycopy(nextNoiseSum, 0, noiseSum, 0, dimension);
    for (int level = 0; level < Math.min(newLevel, CACHED_LEVELS); level++) {
      cached[level] = false; // merged into the new node
    }
    if (cacheNew) {
      long[] previous = nodeNoise[newLevel];
      nodeNoise[newLevel] = newNodeNoise;
      newNodeNoise = previous;
      cached[newLevel] = true;
    }
    steps = next;
  }

  @Override
  public void currentRelease(long[] release) {
    LatticeVectors.sumInto(exactSum, noiseSum, release);
  }

  @Override
  public void exactSum(long[] sum) {
    LatticeVectors.checkDimension(sum, dimension);
    System.arraycopy(exactSum, 0, sum, 0, dimension);
  }
}
