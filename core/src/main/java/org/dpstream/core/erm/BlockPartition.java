package org.dpstream.core.erm;

import java.util.Arrays;

/**
 * A partition of the coordinates [d] into b non-empty blocks A_1..A_b (Maranjyan et al., Section 4.2.1).
 * b = d gives singletons (coordinate descent), b = 1 the full set. Immutable.
 */
public final class BlockPartition {

  private final int[][] blocks;
  private final int[] blockOf;

  private BlockPartition(int[][] blocks, int dimension) {
    this.blocks = blocks;
    this.blockOf = new int[dimension];
    Arrays.fill(blockOf, -1);
    for (int u = 0; u < blocks.length; u++) {
      if (blocks[u].length == 0) {
        throw new IllegalArgumentException("block " + u + " is empty");
      }
      for (int j : blocks[u]) {
        if (j < 0 || j >= dimension) {
          throw new IllegalArgumentException("coordinate " + j + " outside [0, " + dimension + ")");
        }
        if (blockOf[j] >= 0) {
          throw new IllegalArgumentException("coordinate " + j + " is in blocks " + blockOf[j] + " and " + u);
        }
        blockOf[j] = u;
      }
    }
    for (int j = 0; j < dimension; j++) {
      if (blockOf[j] < 0) {
        throw new IllegalArgumentException("coordinate " + j + " is in no block");
      }
    }
  }

  /** An explicit partition of [0, dimension); the blocks are copied. */
  public static BlockPartition of(int dimension, int[][] blocks) {
    int[][] copy = new int[blocks.length][];
    for (int u = 0; u < blocks.length; u++) {
      copy[u] = blocks[u].clone();
    }
    return new BlockPartition(copy, dimension);
  }

  /**
   * b contiguous blocks of sizes differing by at most one (the first d mod b blocks get one more).
   *
   * @param blockCount b in [1, d]
   */
  public static BlockPartition contiguous(int dimension, int blockCount) {
    if (blockCount < 1 || blockCount > dimension) {
      throw new IllegalArgumentException(
          "block count must be in [1, " + dimension + "], got " + blockCount);
    }
    int[][] blocks = new int[blockCount][];
    int base = dimension / blockCount;
    int larger = dimension % blockCount;
    int next = 0;
    for (int u = 0; u < blockCount; u++) {
      int size = base + (u < larger ? 1 : 0);
      blocks[u] = new int[size];
      for (int t = 0; t < size; t++) {
        blocks[u][t] = next++;
      }
    }
    return new BlockPartition(blocks, dimension);
  }

  public int dimension() {
    return blockOf.length;
  }

  /** b. */
  public int blockCount() {
    return blocks.length;
  }

  /** The block index B(j) of coordinate j. */
  public int blockOf(int j) {
    return blockOf[j];
  }

  /** A copy of block u. */
  public int[] block(int u) {
    return blocks[u].clone();
  }

  /** Block u, shared: callers in this package must not modify it. */
  int[] blockView(int u) {
    return blocks[u];
  }

  /** The size of the largest block. */
  public int maxBlockSize() {
    int max = 0;
    for (int[] block : blocks) {
      max = Math.max(max, block.length);
    }
    return max;
  }

  @Override
  public String toString() {
    return "BlockPartition(d=" + dimension() + ", b=" + blockCount() + ")";
  }
}
