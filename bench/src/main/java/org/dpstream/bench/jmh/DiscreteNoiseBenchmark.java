package org.dpstream.bench.jmh;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpstream.core.privacy.noise.DiscreteGaussian;
import org.dpstream.core.privacy.noise.ExactIntegerSampler;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.noise.RandomBits;
import org.dpstream.core.privacy.noise.TabulatedDiscreteGaussian;
import org.dpstream.core.privacy.random.NoiseStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * One coordinate of lattice noise, in lattice units, from the keyed source: the continuous Gaussian
 * (Ziggurat) rounded by floor(z + 1/2) as the tree does today, against the exact discrete Gaussian.
 * Scores are coordinates per second (each invocation draws {@link #COORDINATES} from one keyed
 * coordinate; the discrete draws share one {@code RandomBits} reservoir, as a tree node's coordinates do). sigmaUnits = 1e10 is the tree's regime (sigma of a few clip bounds on a lattice of 2^-30
 * of the bound; the tree rounds sigma up to whole units); 3 is a small sigma. The fractional values
 * take the general rational path: 3.5 in long arithmetic, 1e10 + 0.5 in BigInteger. {@code discrete} is
 * CKS20's rejection sampler ({@link DiscreteGaussian}); {@code tabulated} the cell-table sampler the tree uses
 * from 2^20 units on ({@link TabulatedDiscreteGaussian}, sigma rounded up to a multiple of 256, so its
 * sigma = 3 row is sigma = 256).
 */
public class DiscreteNoiseBenchmark extends ThroughputBenchmark {

  static final int COORDINATES = 1000;

  @Param({"continuous", "discrete", "tabulated"})
  public String noise;

  @Param({"3", "3.5", "1.0e10", "1.00000000005e10"})
  public double sigmaUnits;

  private final long[] out = new long[COORDINATES];
  private double[] continuous;
  private IidVectorNoise gaussian;
  private ExactIntegerSampler discrete;
  private NoiseStream stream;
  private long next;

  @Setup
  public void setUp() {
    stream = BenchmarkInputs.keyedSource(6L).forStream("tree", "benchmark");
    gaussian = IidVectorNoise.gaussian(COORDINATES, sigmaUnits);
    continuous = new double[COORDINATES];
    discrete = noise.equals("tabulated")
        ? TabulatedDiscreteGaussian.ofSigmaAtLeast((long) Math.ceil(sigmaUnits))
        : DiscreteGaussian.ofSigma(sigmaUnits);
  }

  @Benchmark
  @OperationsPerInvocation(COORDINATES)
  public long[] coordinate() {
    UniformRandomProvider bits = stream.at(0, next++);
    if (!noise.equals("continuous")) {
      RandomBits shared = RandomBits.of(bits); // as the tree's node noise: one reservoir per node
      for (int i = 0; i < COORDINATES; i++) {
        out[i] = discrete.sample(shared);
      }
    } else {
      gaussian.sample(bits, continuous);
      for (int i = 0; i < COORDINATES; i++) {
        out[i] = (long) Math.floor(continuous[i] + 0.5);
      }
    }
    return out;
  }
}
