package org.dpstream.core.privacy.tree;

/**
 * One tree of the binary mechanism: takes leaves one at a time and releases each noisy prefix sum.
 *
 * <p>Contract: after the t-th call of {@link #addAndRelease}, the released value is the exact sum of
 * the t leaves plus the noise of the nodes in the dyadic decomposition of [1, t] (one node per set bit
 * of t). Only that release exists: earlier nodes cannot be queried again.
 */
public interface PrefixSumTree {

  int dimension();

  /** Leaves added so far. */
  long steps();

  /**
   * Adds a leaf and writes the noisy prefix sum of all leaves so far into {@code release}.
   *
   * @throws ArithmeticException if a sum would overflow a {@code long}: the lattice is too fine
   */
  void addAndRelease(long[] leaf, long[] release);

  /** Writes the latest release again (all zeros before the first leaf). */
  void currentRelease(long[] release);

  /** Writes the exact, noise-free sum of the leaves so far: raw data, for state snapshots only. */
  void exactSum(long[] sum);
}
