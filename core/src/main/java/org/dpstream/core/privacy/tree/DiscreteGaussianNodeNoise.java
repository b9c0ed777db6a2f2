package org.dpstream.core.privacy.tree;

import org.dpstream.core.privacy.noise.DiscreteGaussian;
import org.dpstream.core.privacy.noise.ExactIntegerSampler;
import org.dpstream.core.privacy.noise.RandomBits;
import org.dpstream.core.privacy.noise.TabulatedDiscreteGaussian;
import org.dpstream.core.privacy.random.NoiseStream;

/**
 * Node noise drawn exactly on the lattice: every coordinate of a node is N_Z(0, n^2) in lattice units,
 * n &gt;= sigma / gamma a whole number (below), from the bits of the keyed source at (epoch, node). No floating-point value
 * decides a unit of noise (see {@link DiscreteGaussian}); adding it to a lattice leaf whose neighbour
 * differs by an integer vector of l2 norm Delta / gamma is the multivariate discrete Gaussian mechanism,
 * (Delta^2 / (2 (n gamma)^2))-zCDP per node, at most the (Delta^2 / (2 sigma^2)) of the continuous Gaussian
 * of the calibrated sigma (docs/privacy-layer.md).
 *
 * <p>sigma is rounded up to whole units, and from {@link #TABULATED_FROM} units on further up to a multiple
 * of 2^8, which {@link TabulatedDiscreteGaussian} samples several times faster than the rejection sampler
 * (a relative 2^-12 at most, about 2^-26 at the tree's lattice, where sigma is some 2^34 units); below, the
 * whole sigma takes {@link DiscreteGaussian#ofIntegerSigma}. Rounding up never lowers the noise, so the
 * accounted rho stays an upper bound.
 *
 * <p>Not thread-safe (the stream's cipher is reused): one per stream thread.
 */
public final class DiscreteGaussianNodeNoise extends SignedNodeNoise {

  private final NoiseStream bits;
  private final int dimension;
  /** From this many units of sigma on, the tabulated sampler (rounding up to a multiple of 2^8 adds at most 2^-12). */
  public static final long TABULATED_FROM = 1L << 20;

  private final ExactIntegerSampler coordinate;
  private final long sigmaUnits;
  private final double sigma;
  private final Lattice lattice;

  private DiscreteGaussianNodeNoise(
      NoiseStream bits, int dimension, ExactIntegerSampler coordinate, long sigmaUnits, double sigma, Lattice lattice) {
    this.bits = bits;
    this.dimension = dimension;
    this.coordinate = coordinate;
    this.sigmaUnits = sigmaUnits;
    this.sigma = sigma;
    this.lattice = lattice;
  }

  /**
   * Noise of standard parameter at least {@code sigma} (real units) on {@code lattice}: ceil(sigma / gamma)
   * lattice units (sigma / gamma is exact, gamma being a power of two).
   *
   * @throws IllegalArgumentException unless 0 &lt; sigma / gamma &lt; 2^53 - 1
   */
  public static DiscreteGaussianNodeNoise onLattice(NoiseStream bits, int dimension, double sigma, Lattice lattice) {
    if (dimension <= 0) {
      throw new IllegalArgumentException("dimension must be positive: " + dimension);
    }
    double units = Math.scalb(sigma, -lattice.exponent());
    if (!(units > 0 && units < DiscreteGaussian.MAX_SIGMA)) {
      throw new IllegalArgumentException("noise sigma " + sigma + " is " + units + " units of " + lattice
          + "; the discrete Gaussian needs it in (0, 2^53 - 1)");
    }
    long wholeUnits = (long) Math.ceil(units); // exact: units < 2^53
    if (wholeUnits >= TABULATED_FROM) {
      TabulatedDiscreteGaussian tabulated = TabulatedDiscreteGaussian.ofSigmaAtLeast(wholeUnits);
      return new DiscreteGaussianNodeNoise(bits, dimension, tabulated, tabulated.sigma(), sigma, lattice);
    }
    return new DiscreteGaussianNodeNoise(
        bits, dimension, DiscreteGaussian.ofIntegerSigma(wholeUnits), wholeUnits, sigma, lattice);
  }

  /** The per-coordinate sampler in lattice units. */
  public ExactIntegerSampler coordinate() {
    return coordinate;
  }

  /** n: every coordinate is N_Z(0, n^2) in lattice units, n &gt;= sigma / gamma. */
  public long sigmaUnits() {
    return sigmaUnits;
  }

  @Override
  void accumulate(long epoch, long node, long[] sum, boolean negate) {
    LatticeVectors.checkDimension(sum, dimension);
    // One bit reservoir for the whole node: the coordinates share its words, no bit is used twice.
    RandomBits nodeBits = RandomBits.of(bits.at(epoch, node));
    for (int i = 0; i < dimension; i++) {
      long units = coordinate.sample(nodeBits);
      sum[i] = negate ? Math.subtractExact(sum[i], units) : Math.addExact(sum[i], units);
    }
  }

  @Override
  public String toString() {
    return "DiscreteGaussianNodeNoise[d=" + dimension + ", sigma=" + sigma + ", " + lattice + "]";
  }
}
