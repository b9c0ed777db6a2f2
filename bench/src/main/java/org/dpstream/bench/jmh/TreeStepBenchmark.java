package org.dpstream.bench.jmh;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.random.NoiseStream;
import org.dpstream.core.privacy.tree.ContinualPrefixSum;
import org.dpstream.core.privacy.tree.DiscreteGaussianNodeNoise;
import org.dpstream.core.privacy.tree.NodeNoise;
import org.dpstream.core.privacy.tree.KeyedNodeNoise;
import org.dpstream.core.privacy.tree.Lattice;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * One step of the O(d) tree mechanism with keyed Gaussian node noise (continuous, or exact discrete): add a leaf, subtract the
 * merged nodes' noise (kept in memory for the lowest four levels, regenerated above), draw the new node's, release the noisy
 * prefix sum. Amortised 1 + 1/16 node draws of d Gaussians per step.
 */
public class TreeStepBenchmark extends ThroughputBenchmark {

  private static final int LEAVES = 1024;

  @Param({"20", "100", "1000"})
  public int dimension;

  /** continuous: Ziggurat Gaussian rounded to the lattice; discrete: the exact discrete Gaussian on it. */
  @Param({"continuous", "discrete"})
  public String noise;

  private ContinualPrefixSum mechanism;
  private long[][] leaves;
  private long[] release;
  private int next;

  @Setup
  public void setUp() {
    Lattice lattice = Lattice.ofPowerOfTwo(-30);
    NoiseStream bits = BenchmarkInputs.keyedSource(2L).forStream("tree", "benchmark");
    NodeNoise nodeNoise = noise.equals("discrete")
        ? DiscreteGaussianNodeNoise.onLattice(bits, dimension, 10.0, lattice)
        : new KeyedNodeNoise(bits, IidVectorNoise.gaussian(dimension, 10.0), lattice);
    // A horizon far beyond what a run reaches, so the benchmark measures steps, not epoch changes.
    mechanism = ContinualPrefixSum.compact(dimension, 1L << 40, nodeNoise);
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(3L);
    leaves = new long[LEAVES][dimension];
    for (long[] leaf : leaves) {
      for (int i = 0; i < dimension; i++) {
        leaf[i] = lattice.toUnits(rng.nextDouble() - 0.5);
      }
    }
    release = new long[dimension];
  }

  @Benchmark
  public long[] step() {
    mechanism.addAndRelease(leaves[next++ & (LEAVES - 1)], release);
    return release;
  }
}
