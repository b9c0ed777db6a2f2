package org.dpstream.core.privacy.tree;

import org.dpstream.core.privacy.noise.VectorNoise;
import org.dpstream.core.privacy.random.NoiseStream;

/**
 * Node noise drawn from a distribution with the bits of the keyed source at (epoch, node), rounded to
 * the lattice. The production {@link NodeNoise}.
 *
 * <p>Not thread-safe (a scratch buffer and the stream's cipher are reused): one per stream thread.
 */
public final class KeyedNodeNoise extends SignedNodeNoise {

  private final NoiseStream bits;
  private final VectorNoise distribution;
  private final Lattice lattice;
  private final double[] draw;

  public KeyedNodeNoise(NoiseStream bits, VectorNoise distribution, Lattice lattice) {
    this.bits = bits;
    this.distribution = distribution;
    this.lattice = lattice;
    this.draw = new double[distribution.dimension()];
  }

  @Override
  void accumulate(long epoch, long node, long[] sum, boolean negate) {
    LatticeVectors.checkDimension(sum, draw.length);
    distribution.sample(bits.at(epoch, node), draw);
    for (int i = 0; i < draw.length; i++) {
      long units = lattice.toUnits(draw[i]);
      sum[i] = negate ? Math.subtractExact(sum[i], units) : Math.addExact(sum[i], units);
    }
  }

  @Override
  public String toString() {
    return "KeyedNodeNoise[" + distribution.describe() + ", " + lattice + "]";
  }
}
