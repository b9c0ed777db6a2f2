package org.dpstream.core.privacy.accounting;

import java.util.Arrays;
import java.util.Objects;
import java.util.stream.LongStream;

/**
 * The sensitivity structure of a correlated-noise Gaussian mechanism, as its privacy map needs it: upper
 * bounds on Phi(t), the squared l2 norm of what one participant's leaves contribute to the strategy's released
 * rows 1..t, in units of one leaf's l2 sensitivity. For one leaf (event level) that is the squared norm of its
 * column cut to those rows: min(h, floor(log2 t) + 1) for the binary tree ({@link #tree}), F(t) = sum_{k &lt; t}
 * c_k^2 for a lower-triangular Toeplitz strategy with coefficients c_k ({@link #toeplitz}). A participant with
 * several leaves is another Phi ({@link #of}) under the same map.
 *
 * <p>Tabulated at checkpoints 1 = t_1 &lt; ... &lt; t_m: bound i holds for every step in (t_(i-1), t_i], and the
 * last one for every later step too, so the last is the bound over all rows and what sigma is calibrated to.
 * The bounds are made non-decreasing (running maximum). Immutable.
 */
public final class SensitivityStructure {

  /** Upper bounds on F(t) = sum_{k &lt; t} c_k^2 of the exact strategy a mechanism applies. */
  @FunctionalInterface
  public interface SquaredColumnNorms {
    /**
     * @param steps increasing, from 1
     * @return for each step t, an upper bound on F(t), rounded up (rigorous, not to nearest)
     */
    double[] upperBoundsAt(long[] steps);
  }

  /** In a Toeplitz structure, every step up to this one has its own checkpoint. */
  public static final int EXACT_STEPS = 64;

  /** Beyond {@link #EXACT_STEPS}, consecutive Toeplitz checkpoints t &lt; t' satisfy t' - t = ceil(t / this). */
  public static final int CHECKPOINT_SPACING_DIVISOR = 64;

  /** The largest binary tree: the checkpoint of its full depth, 2^(h-1), must be a long. */
  static final long MAX_TREE_CAPACITY = 1L << 62;

  private final long horizon;
  private final long[] checkpoints;
  private final double[] bounds;
  // [b]: the index of the first checkpoint >= 2^b (or the number of checkpoints): a step's octave narrows the
  // search, so the tree's map, looked up every step, takes one comparison.
  private final int[] firstInOctave;

  private SensitivityStructure(long horizon, long[] checkpoints, double[] bounds) {
    this.horizon = horizon;
    this.checkpoints = checkpoints;
    this.bounds = bounds;
    this.firstInOctave = new int[Long.SIZE];
    for (int octave = 0, c = 0; octave < Long.SIZE - 1; octave++) {
      while (c < checkpoints.length && checkpoints[c] < 1L << octave) {
        c++;
      }
      firstInOctave[octave] = c;
    }
    firstInOctave[Long.SIZE - 1] = checkpoints.length; // 2^63 is beyond every long
  }

  /**
   * @param horizon n, the steps of one epoch, at least 1
   * @param checkpoints increasing from 1, the last at least n
   * @param upperBounds for each checkpoint t_i, an upper bound on Phi over (t_(i-1), t_i], rounded up; positive
   *     and finite
   */
  public static SensitivityStructure of(long horizon, long[] checkpoints, double[] upperBounds) {
    if (horizon < 1) {
      throw new IllegalArgumentException("horizon must be at least 1, got " + horizon);
    }
    long[] steps = checkpoints.clone();
    double[] monotone = upperBounds.clone();
    if (steps.length == 0 || steps.length != monotone.length) {
      throw new IllegalArgumentException("need one bound per checkpoint, at least one: " + steps.length
          + " checkpoints, " + monotone.length + " bounds");
    }
    if (steps[0] != 1 || steps[steps.length - 1] < horizon) {
      throw new IllegalArgumentException("checkpoints must start at 1 and reach the horizon " + horizon + ", got "
          + steps[0] + " to " + steps[steps.length - 1]);
    }
    for (int c = 0; c < steps.length; c++) {
      if (c > 0 && steps[c] <= steps[c - 1]) {
        throw new IllegalArgumentException("checkpoints must increase, got " + steps[c - 1] + " then " + steps[c]);
      }
      if (!(monotone[c] > 0) || !Double.isFinite(monotone[c])) {
        throw new IllegalArgumentException("the squared norm bound at step " + steps[c]
            + " must be positive and finite, got " + monotone[c]);
      }
      if (c > 0) {
        monotone[c] = Math.max(monotone[c - 1], monotone[c]);
      }
    }
    return new SensitivityStructure(horizon, steps, monotone);
  }

  /**
   * The binary tree over n leaves ({@link TreeHorizon}): by step t a leaf has been in at most
   * k(t) = min(h, floor(log2 t) + 1) released nodes, each adding one leaf to the released rows, so Phi(t) = k(t):
   * j on steps 2^(j-1) .. 2^j - 1, and h from 2^(h-1) on. Sigma is calibrated to h, the depth of the whole tree.
   *
   * @throws IllegalArgumentException beyond {@value #MAX_TREE_CAPACITY} leaves
   */
  public static SensitivityStructure tree(TreeHorizon tree) {
    return tree(tree, 1);
  }

  /**
   * The binary tree over n leaves for a participant with up to k leaves (person level): Phi_k(t), the largest
   * squared norm of the sum of k columns cut to the nodes released by step t. Node v at level l (2^l leaves) holds
   * c_v of the k leaves, and the sum of the columns has squared norm sum_v c_v^2. On one level the counts are at
   * most 2^l each and add up to at most k, so sum_v c_v^2 &lt;= g_l(k) = floor(k / 2^l) 4^l + (k mod 2^l)^2 (a
   * convex function is largest at a vertex of that polytope: as many full nodes as fit, and the rest in one);
   * an aligned block of k consecutive leaves reaches g_l(k) on every level at once, so on a tree of 2^(h-1) leaves
   * Phi_k = sum_l g_l(k) exactly ({@code SensitivityStructureTest} checks it against every k-subset of small
   * trees). By step t only the levels l &lt;= floor(log2 t) have released a node, as for one leaf, so Phi_k(t) is
   * the sum over those levels; k = 1 gives the one-leaf structure, g_l(1) = 1.
   *
   * <p>Why this, and not k^2 times the one-leaf bound: on the top levels (2^l &gt;= k) the k leaves can share a
   * node (k^2 each), but on the lower ones they cannot, so Phi_k = k^2 h - k^2 log2 k + O(k^2) at k a power of two.
   * g_l(j) / j is non-decreasing in j, so Phi_j(t) &lt;= (j / k) Phi_k for j &lt;= k: a person whose k leaves fall in
   * several epochs (or adaptive clipping's blocks), each calibrated to its own Phi_k, costs at most one Phi_k in all
   * (docs/privacy-layer.md, "Person-level privacy").
   *
   * @param participations k, at least 1
   * @throws IllegalArgumentException beyond {@value #MAX_TREE_CAPACITY} leaves
   */
  public static SensitivityStructure tree(TreeHorizon tree, int participations) {
    if (tree.capacity() > MAX_TREE_CAPACITY) {
      throw new IllegalArgumentException("a tree of more than 2^62 leaves, got " + tree.capacity());
    }
    if (participations < 1) {
      throw new IllegalArgumentException("participations must be at least 1, got " + participations);
    }
    int depth = tree.depth();
    long[] steps = new long[depth];
    double[] nodes = new double[depth];
    double levels = 0;
    for (int level = 1; level < depth; level++) {
      levels = Rounding.tightSumUp(levels, levelBound(level - 1, participations));
      steps[level - 1] = (1L << level) - 1;
      nodes[level - 1] = levels;
    }
    steps[depth - 1] = 1L << (depth - 1);
    nodes[depth - 1] = Rounding.tightSumUp(levels, levelBound(depth - 1, participations));
    return of(tree.capacity(), steps, nodes);
  }

  /** g_l(k) = floor(k / 2^l) 4^l + (k mod 2^l)^2: the most sum_v c_v^2 of k leaves on level l (exact below 2^53). */
  static double levelBound(int level, int participations) {
    if (level >= Integer.SIZE - 1 || participations < 1L << level) {
      return (double) participations * participations; // all k fit in one node
    }
    long nodeSize = 1L << level;
    long full = participations / nodeSize;
    long rest = participations % nodeSize;
    return (double) (full * nodeSize * nodeSize + rest * rest);
  }

  /**
   * A lower-triangular Toeplitz strategy C over an epoch of n steps (the square root, a BLT): its columns are
   * truncations of the first, so column i cut to rows 1..t has squared norm at most F(t) = sum_{k &lt; t} c_k^2.
   * Checkpoints: every step up to {@value #EXACT_STEPS}, then steps about 1/{@value #CHECKPOINT_SPACING_DIVISOR}
   * apart, and n last; a step between two takes the later one's bound, an upper bound since F grows with t.
   */
  public static SensitivityStructure toeplitz(long horizon, SquaredColumnNorms norms) {
    Objects.requireNonNull(norms, "norms");
    if (horizon < 1) {
      throw new IllegalArgumentException("horizon must be at least 1, got " + horizon);
    }
    long[] steps = toeplitzCheckpoints(horizon);
    double[] bounds = norms.upperBoundsAt(steps.clone());
    if (bounds.length != steps.length) {
      throw new IllegalStateException(
          "the strategy returned " + bounds.length + " bounds for " + steps.length + " steps; this is a bug");
    }
    return of(horizon, steps, bounds);
  }

  /** 1, 2, .., EXACT_STEPS, then geometric spacing, and always n last. */
  private static long[] toeplitzCheckpoints(long horizon) {
    LongStream.Builder steps = LongStream.builder();
    long step = 1;
    while (step < horizon) {
      steps.add(step);
      step += step < EXACT_STEPS ? 1 : (step + CHECKPOINT_SPACING_DIVISOR - 1) / CHECKPOINT_SPACING_DIVISOR;
    }
    steps.add(horizon);
    return steps.build().toArray();
  }

  /** n: the steps of one epoch. */
  public long horizon() {
    return horizon;
  }

  /** The number of checkpoints. */
  public int size() {
    return checkpoints.length;
  }

  /** The i-th checkpoint step. */
  public long checkpoint(int index) {
    return checkpoints[index];
  }

  /** The bound on Phi over the steps up to the i-th checkpoint (non-decreasing in i). */
  public double bound(int index) {
    return bounds[index];
  }

  /** The bound over every row: the last checkpoint's. */
  public double largestBound() {
    return bounds[bounds.length - 1];
  }

  /** The index of the first checkpoint at or after {@code step}, or the last one past it. */
  public int indexOf(long step) {
    if (step < 1) {
      throw new IllegalArgumentException("step must be at least 1, got " + step);
    }
    int last = checkpoints.length - 1;
    int octave = Long.SIZE - 1 - Long.numberOfLeadingZeros(step); // 2^octave <= step < 2^(octave + 1)
    // The answer is at or after the first checkpoint of step's octave, and at or before the next octave's first.
    int from = Math.min(firstInOctave[octave], last);
    int to = Math.min(firstInOctave[octave + 1], last);
    int found = Arrays.binarySearch(checkpoints, from, to + 1, step);
    return found >= 0 ? found : Math.min(-found - 1, last);
  }

  @Override
  public String toString() {
    return "SensitivityStructure[n=" + horizon + ", " + checkpoints.length + " checkpoints, Phi <= " + largestBound()
        + "]";
  }
}
