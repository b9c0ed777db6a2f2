package org.dpstream.core.privacy.tree;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Continual release of prefix sums over an unbounded stream, one tree of capacity n per epoch.
 *
 * <p>When a tree is full, the next leaf starts a new tree (epoch + 1) over the new leaves only, and
 * releases continue from the last released prefix of the previous epoch: release = base + noisy
 * prefix of the current tree, where base is itself a release (post-processing). Each leaf is in
 * exactly one tree, so the event-level guarantee of one tree holds for the whole stream.
 */
public final class ContinualPrefixSum {

  /** Makes the tree of an epoch. */
  @FunctionalInterface
  public interface TreeFactory {
    PrefixSumTree create(int dimension, long epoch);
  }

  /** First byte of a snapshot; bump it when the layout changes. */
  static final byte SNAPSHOT_VERSION = 1;

  /** Bounds what a corrupt snapshot can make us allocate. */
  private static final int MAX_DIMENSION = 1 << 24;

  private final int dimension;
  private final long horizon;
  private final TreeFactory trees;
  private final long[] base;
  private final long[] scratch;
  private long epoch;
  private PrefixSumTree tree;

  private ContinualPrefixSum(int dimension, long horizon, TreeFactory trees, long epoch, long[] base, PrefixSumTree tree) {
    this.dimension = dimension;
    this.horizon = horizon;
    this.trees = trees;
    this.epoch = epoch;
    this.base = base;
    this.tree = tree;
    this.scratch = new long[dimension];
  }

  /** A new stream with trees made by {@code trees}, each of capacity {@code horizon}. */
  public static ContinualPrefixSum start(int dimension, long horizon, TreeFactory trees) {
    if (dimension <= 0 || horizon <= 0) {
      throw new IllegalArgumentException("need dimension > 0 and horizon > 0: d=" + dimension + ", n=" + horizon);
    }
    return new ContinualPrefixSum(dimension, horizon, trees, 0, new long[dimension], trees.create(dimension, 0));
  }

  /** A new stream on {@link CompactBinaryMechanism} trees: O(d) state. */
  public static ContinualPrefixSum compact(int dimension, long horizon, NodeNoise noise) {
    return start(dimension, horizon, (d, epoch) -> new CompactBinaryMechanism(d, epoch, noise));
  }

  /**
   * Adds a leaf (lattice units) and writes the released prefix sum over the whole stream.
   *
   * @throws ArithmeticException on overflow (the lattice is too fine for these sums); nothing changes
   */
  public void addAndRelease(long[] leaf, long[] release) {
    LatticeVectors.checkDimension(leaf, dimension);
    if (tree.steps() == horizon) {
      startNextEpoch();
    }
    tree.addAndRelease(leaf, scratch);
    LatticeVectors.sumInto(base, scratch, release);
  }

  private void startNextEpoch() {
    long[] nextBase = new long[dimension];
    tree.currentRelease(scratch);
    LatticeVectors.sumInto(base, scratch, nextBase);
    PrefixSumTree next = trees.create(dimension, epoch + 1);
    System.arraycopy(nextBase, 0, base, 0, dimension);
    epoch++;
    tree = next;
  }

  public int dimension() {
    return dimension;
  }

  public long horizon() {
    return horizon;
  }

  public long epoch() {
    return epoch;
  }

  /** Leaves in the current epoch's tree. */
  public long stepsInEpoch() {
    return tree.steps();
  }

  /** Leaves over all epochs. */
  public long totalSteps() {
    return Math.addExact(Math.multiplyExact(epoch, horizon), tree.steps());
  }

  /**
   * Writes the state: version, dimension, horizon, epoch, base, steps in epoch, exact sum. The node
   * noise is not written: it is regenerated from the key on {@link #readCompact}. The snapshot holds
   * the raw exact sum and so needs the access control of the input.
   */
  public void writeTo(DataOutput out) throws IOException {
    out.writeByte(SNAPSHOT_VERSION);
    out.writeInt(dimension);
    out.writeLong(horizon);
    out.writeLong(epoch);
    writeVector(out, base);
    out.writeLong(tree.steps());
    tree.exactSum(scratch);
    writeVector(out, scratch);
  }

  /** Restores a snapshot of {@link #writeTo} onto compact trees drawing noise from {@code noise}. */
  public static ContinualPrefixSum readCompact(DataInput in, NodeNoise noise) throws IOException {
    byte version = in.readByte();
    if (version != SNAPSHOT_VERSION) {
      throw new IOException("unknown prefix-sum snapshot version " + version + " (this build reads " + SNAPSHOT_VERSION + ")");
    }
    int dimension = in.readInt();
    long horizon = in.readLong();
    long epoch = in.readLong();
    if (dimension <= 0 || dimension > MAX_DIMENSION || horizon <= 0 || epoch < 0) {
      throw new IOException("corrupt prefix-sum snapshot: d=" + dimension + ", n=" + horizon + ", epoch=" + epoch);
    }
    long[] base = readVector(in, dimension);
    long steps = in.readLong();
    if (steps < 0 || steps > horizon) {
      throw new IOException("corrupt prefix-sum snapshot: " + steps + " steps in a tree of " + horizon);
    }
    long[] exactSum = readVector(in, dimension);
    TreeFactory trees = (d, e) -> new CompactBinaryMechanism(d, e, noise);
    return new ContinualPrefixSum(
        dimension, horizon, trees, epoch, base, CompactBinaryMechanism.restore(epoch, steps, exactSum, noise));
  }

  private static void writeVector(DataOutput out, long[] vector) throws IOException {
    for (long v : vector) {
      out.writeLong(v);
    }
  }

  private static long[] readVector(DataInput in, int dimension) throws IOException {
    long[] vector = new long[dimension];
    for (int i = 0; i < dimension; i++) {
      vector[i] = in.readLong();
    }
    return vector;
  }

  @Override
  public String toString() {
    return "ContinualPrefixSum[d=" + dimension + ", n=" + horizon + ", epoch=" + epoch + ", steps=" + tree.steps() + "]";
  }
}
