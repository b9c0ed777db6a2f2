package org.dpstream.core.online;

import java.util.Arrays;

/**
 * The public block schedule of adaptive clipping within one epoch of n steps: the threshold changes only
 * between blocks. The first block has b steps, b the largest power of two at most n / 2^K
 * (K = {@value #DOUBLINGS}) and at least {@value #MIN_BLOCK}; block k ends at b 2^k while that is below n, the
 * last block ends at n (a last end within one step of n is dropped, so every block has at least two steps).
 * At n = 10^4: b = 256 and the blocks end at 256, 512, 1024, 2048, 4096, 8192, 10000.
 *
 * <p>Why powers of two: a block of 2^j steps releases its noisy total as the root of its tree, one node,
 * instead of the popcount(length) nodes of an unaligned length; every later prefix sum carries the finished
 * blocks' totals. A function of n only: public.
 */
final class ClipBlockSchedule {

  /** K: the first block is about n / 2^K long, the others double. */
  static final int DOUBLINGS = 5;

  /** A block's mechanism needs a horizon of at least 2. */
  static final long MIN_BLOCK = 2;

  /** The smallest horizon with two blocks: the first (the warm-up of a model's first epoch) and another. */
  static final long MIN_HORIZON = 2 * MIN_BLOCK;

  private final long[] ends; // 1-based last step of each block; ends[last] = n

  private ClipBlockSchedule(long[] ends) {
    this.ends = ends;
  }

  static ClipBlockSchedule forHorizon(long horizon) {
    if (horizon < MIN_HORIZON) {
      throw new IllegalArgumentException("clip.mode: adaptive needs horizon >= " + MIN_HORIZON + ", got " + horizon);
    }
    long first = Math.max(MIN_BLOCK, Long.highestOneBit(horizon >> DOUBLINGS));
    long[] candidates = new long[Long.SIZE + 1];
    int count = 0;
    for (long end = first; end < horizon - 1; end *= 2) {
      candidates[count++] = end;
    }
    candidates[count++] = horizon;
    return new ClipBlockSchedule(Arrays.copyOf(candidates, count));
  }

  int blockCount() {
    return ends.length;
  }

  /** Steps of the epoch before block k. */
  long start(int block) {
    return block == 0 ? 0 : ends[block - 1];
  }

  long length(int block) {
    return ends[block] - start(block);
  }

  /** The block holding the step {@code step} of the epoch (1-based). */
  int blockOf(long step) {
    if (step < 1 || step > ends[ends.length - 1]) {
      throw new IllegalArgumentException("step " + step + " is outside the epoch of " + ends[ends.length - 1]);
    }
    int found = Arrays.binarySearch(ends, step);
    return found >= 0 ? found : -found - 1;
  }

  @Override
  public String toString() {
    return "blocks" + Arrays.toString(ends);
  }
}
