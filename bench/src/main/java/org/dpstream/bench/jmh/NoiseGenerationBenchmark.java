package org.dpstream.bench.jmh;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.random.NoiseStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Gaussians per second from the keyed cryptographic source and from a fast simulation generator,
 * side by side. Scores are Gaussians per second (each invocation draws {@link #GAUSSIANS}).
 *
 * <p>{@code bulk}: one long sequence, the cost of the bits and the sampler alone. {@code perNode}:
 * a fresh coordinate per draw of a d = 20 vector, as the tree does (one coordinate per node), which
 * adds the per-coordinate setup.
 */
public class NoiseGenerationBenchmark extends ThroughputBenchmark {

  static final int GAUSSIANS = 1000;
  private static final int NODE_DIMENSION = 20;

  @Param({"keyed-aes", "xoroshiro128pp"})
  public String source;

  private final IidVectorNoise bulk = IidVectorNoise.gaussian(GAUSSIANS, 1.0);
  private final IidVectorNoise node = IidVectorNoise.gaussian(NODE_DIMENSION, 1.0);
  private final double[] bulkOut = new double[GAUSSIANS];
  private final double[] nodeOut = new double[NODE_DIMENSION];
  private NoiseStream stream;
  private UniformRandomProvider fast;
  private long nextNode;

  @Setup
  public void setUp() {
    stream = BenchmarkInputs.keyedSource(1L).forStream("tree", "benchmark");
    fast = RandomSource.XO_RO_SHI_RO_128_PP.create(1L);
  }

  private UniformRandomProvider bitsAt(long coordinate) {
    return source.equals("keyed-aes") ? stream.at(0, coordinate) : fast;
  }

  @Benchmark
  @OperationsPerInvocation(GAUSSIANS)
  public double[] bulk() {
    bulk.sample(bitsAt(nextNode++), bulkOut);
    return bulkOut;
  }

  @Benchmark
  @OperationsPerInvocation(GAUSSIANS)
  public double[] perNode() {
    for (int i = 0; i < GAUSSIANS / NODE_DIMENSION; i++) {
      node.sample(bitsAt(nextNode++), nodeOut);
    }
    return nodeOut;
  }
}
