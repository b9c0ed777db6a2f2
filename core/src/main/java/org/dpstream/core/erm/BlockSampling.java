package org.dpstream.core.erm;

import java.util.Arrays;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * Block sampling over a {@link BlockPartition} (Maranjyan et al., DP-SkGD-BS): S = A_i with probability
 * q_i &gt; 0, sum q_i = 1, so p_j = Prob(j in S) = q_{B(j)}. Nonvacuous and proper (Assumption 3.1) by
 * construction.
 *
 * <ul>
 *   <li>{@link #uniform}: q_i = 1/b; with b = d this is DP-CD's uniform coordinate choice;
 *   <li>{@link #importance}: q_i = max_{j in A_i} M_j / sum_l max_{j in A_l} M_j (Section 4.2.1); with b = d,
 *       p_j = M_j / tr M. The M_j must be the public constants of {@link CompositeObjective}. When all
 *       block maxima are equal this returns {@link #uniform} itself.
 * </ul>
 * Immutable; {@link #sampleBlock} is allocation-free.
 */
public final class BlockSampling {

  private final BlockPartition partition;
  private final double[] probabilities;
  private final double[] cumulative;
  private final boolean uniform;

  private BlockSampling(BlockPartition partition, double[] probabilities, boolean uniform) {
    this.partition = partition;
    this.probabilities = probabilities;
    this.uniform = uniform;
    this.cumulative = new double[probabilities.length];
    double sum = 0;
    for (int u = 0; u < probabilities.length; u++) {
      if (!(probabilities[u] > 0)) {
        throw new IllegalArgumentException("block " + u + " has probability " + probabilities[u]);
      }
      sum += probabilities[u];
      cumulative[u] = sum;
    }
    cumulative[cumulative.length - 1] = 1.0; // absorb rounding so that every draw lands in a block
  }

  /** q_i = 1/b. */
  public static BlockSampling uniform(BlockPartition partition) {
    double[] q = new double[partition.blockCount()];
    Arrays.fill(q, 1.0 / q.length);
    return new BlockSampling(partition, q, true);
  }

  /** q_i proportional to max_{j in A_i} M_j. */
  public static BlockSampling importance(BlockPartition partition, double[] smoothness) {
    if (smoothness.length != partition.dimension()) {
      throw new IllegalArgumentException("need one M_j per coordinate");
    }
    double[] q = new double[partition.blockCount()];
    double total = 0;
    boolean allEqual = true;
    for (int u = 0; u < q.length; u++) {
      double max = 0;
      for (int j : partition.blockView(u)) {
        max = Math.max(max, smoothness[j]);
      }
      q[u] = max;
      total += max;
      allEqual &= max == q[0];
    }
    if (allEqual) {
      // Equal weights: exactly the uniform sampling, drawn the same way, so runs coincide bit for bit.
      return uniform(partition);
    }
    for (int u = 0; u < q.length; u++) {
      q[u] /= total;
    }
    return new BlockSampling(partition, q, false);
  }

  public BlockPartition partition() {
    return partition;
  }

  /** q_u. */
  public double blockProbability(int u) {
    return probabilities[u];
  }

  /** p_j = q_{B(j)}. */
  public double inclusionProbability(int j) {
    return probabilities[partition.blockOf(j)];
  }

  /** E|S| = sum_i q_i |A_i|. */
  public double expectedBlockSize() {
    double sum = 0;
    for (int u = 0; u < probabilities.length; u++) {
      sum += probabilities[u] * partition.blockView(u).length;
    }
    return sum;
  }

  /** Draws a block index with probabilities q. */
  public int sampleBlock(UniformRandomProvider bits) {
    if (uniform) {
      return bits.nextInt(probabilities.length);
    }
    double r = bits.nextDouble();
    int index = Arrays.binarySearch(cumulative, r);
    // binarySearch gives the insertion point for a miss: the first u with cumulative[u] > r.
    int u = index >= 0 ? index + 1 : -index - 1;
    return Math.min(u, probabilities.length - 1);
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%s(b=%d)", uniform ? "uniform" : "importance", probabilities.length);
  }
}
