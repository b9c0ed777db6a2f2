package org.dpstream.core.online;

import java.util.Arrays;

/**
 * The public block schedule of adaptive clipping within one epoch of n steps: the threshold changes only
 * between blocks. The first block has b steps, b the largest power of two at most n / 2^K
 * (K = {@value #DOUBLINGS}) and at least {@value #MIN_BLOCK} (the first epoch's warm-up); then blocks of c, c, 2c,
 * 4c, ... steps with c = b / {@value #SHORT_START} (at least {@value #MIN_BLOCK}), i.e. ends at b + c 2^j while
 * that is below n - 1, and the last block ends at n (every block has at least two steps). At n = 10^4: b = 256,
 * c = 32, and the blocks end at 256, 288, 320, 384, 512, 768, 1280, 2304, 4352, 8448, 10000.
 *
 * <p>Why the short blocks after the first: the warm-up measures the increments at theta = 0, where the difference
 * term of the recursive gradient is zero, so its norms miss the larger increments of the first Frank-Wolfe steps;
 * a first block as long as the warm-up is clipped too low, and that bias stays in every later release. A short
 * block lets the next threshold see those increments after c steps. A block costs no noise (one mechanism per
 * epoch) and no privacy (each sample is in one histogram). Chosen by docs/design/clipping-threshold-protocol.md
 * (round 2). A function of n only: public.
 */
final class ClipBlockSchedule {

  /** K: the first block is about n / 2^K long, the others double. */
  static final int DOUBLINGS = 5;

  /** c = b / this: the first blocks after the first are an eighth of it. */
  static final long SHORT_START = 8;

  /** A block has at least 2 steps. */
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
    long unit = Math.max(MIN_BLOCK, first / SHORT_START);
    long[] candidates = new long[Long.SIZE + 2];
    int count = 0;
    candidates[count++] = first;
    for (long offset = unit; first + offset < horizon - 1; offset *= 2) {
      candidates[count++] = first + offset;
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
