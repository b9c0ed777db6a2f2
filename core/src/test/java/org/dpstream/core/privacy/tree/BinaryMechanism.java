package org.dpstream.core.privacy.tree;

import java.util.ArrayList;
import java.util.List;

/**
 * The plain tree-based aggregation of the paper's Algorithm 5 (Guha Thakurta and Smith 2013; the
 * binary mechanism of Chan, Shi and Song 2011): one exact and one noisy partial sum per level, O(d
 * log n) state.
 *
 * <p>Kept as the reference that {@link CompactBinaryMechanism} is tested against; production uses the
 * compact form.
 */
public final class BinaryMechanism implements PrefixSumTree {

  private final int dimension;
  private final long epoch;
  private final NodeNoise noise;
  /** alpha_l: exact sum of the level-l node in the decomposition of [1, t], when bit l of t is set. */
  private final List<long[]> exactNodes = new ArrayList<>();
  /** alpha-hat_l: the same plus the node's noise. */
  private final List<long[]> noisyNodes = new ArrayList<>();
  private long steps;

  public BinaryMechanism(int dimension, long epoch, NodeNoise noise) {
    if (dimension <= 0) {
      throw new IllegalArgumentException("dimension must be positive: " + dimension);
    }
    this.dimension = dimension;
    this.epoch = epoch;
    this.noise = noise;
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
    long t = Math.addExact(steps, 1);
    int level = Long.numberOfTrailingZeros(t);
    while (exactNodes.size() <= level) {
      exactNodes.add(new long[dimension]);
      noisyNodes.add(new long[dimension]);
    }
    // The new level-`level` node absorbs the leaf and every lower node, which stop being used.
    long[] merged = leaf.clone();
    for (int lower = 0; lower < level; lower++) {
      LatticeVectors.addInto(merged, exactNodes.get(lower));
    }
    long[] noisy = merged.clone();
    noise.add(epoch, TreeNodes.id(level, t), noisy);
    exactNodes.set(level, merged);
    noisyNodes.set(level, noisy);
    steps = t;
    currentRelease(release);
  }

  @Override
  public void currentRelease(long[] release) {
    sumOfSetLevels(noisyNodes, release);
  }

  @Override
  public void exactSum(long[] sum) {
    sumOfSetLevels(exactNodes, sum);
  }

  private void sumOfSetLevels(List<long[]> nodes, long[] out) {
    LatticeVectors.checkDimension(out, dimension);
    java.util.Arrays.fill(out, 0L);
    for (int level = 0; level < nodes.size(); level++) {
      if ((steps & (1L << level)) != 0) {
        LatticeVectors.addInto(out, nodes.get(level));
      }
    }
  }
}
