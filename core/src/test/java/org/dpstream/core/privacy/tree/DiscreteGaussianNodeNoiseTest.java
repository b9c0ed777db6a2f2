package org.dpstream.core.privacy.tree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import org.dpstream.core.privacy.noise.DiscreteGaussian;
import org.dpstream.core.privacy.noise.TabulatedDiscreteGaussian;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseStream;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;

/** The calibrated sigma is rounded up to the units the exact samplers take, never down. */
class DiscreteGaussianNodeNoiseTest {

  private static final NoiseStream BITS = new KeyedNoiseSource(TestKeys.seeded(5)).forStream("tree", "discrete");

  @Test
  void belowTheTableSigmaIsRoundedUpToWholeUnits() {
    DiscreteGaussianNodeNoise noise = DiscreteGaussianNodeNoise.onLattice(BITS, 2, 2.51 * 0x1p-3, Lattice.ofPowerOfTwo(-3));
    assertEquals(3, noise.sigmaUnits());
    DiscreteGaussian sampler = assertInstanceOf(DiscreteGaussian.class, noise.coordinate());
    assertEquals(BigInteger.valueOf(9), sampler.sigmaSquaredNumerator());
    assertEquals(BigInteger.ONE, sampler.sigmaSquaredDenominator());
  }

  /** From 2^20 units on, the tabulated sampler's sigma: a multiple of 2^8 at least the whole units. */
  @Test
  void fromTheTableOnSigmaIsRoundedUpToAMultipleOfTwoToTheEight() {
    Lattice unit = Lattice.ofPowerOfTwo(0);
    long justAbove = DiscreteGaussianNodeNoise.TABULATED_FROM + 1;
    DiscreteGaussianNodeNoise noise = DiscreteGaussianNodeNoise.onLattice(BITS, 2, justAbove - 0.5, unit);
    assertEquals(DiscreteGaussianNodeNoise.TABULATED_FROM + 256, noise.sigmaUnits());
    TabulatedDiscreteGaussian sampler = assertInstanceOf(TabulatedDiscreteGaussian.class, noise.coordinate());
    assertEquals(noise.sigmaUnits(), sampler.sigma());
    DiscreteGaussianNodeNoise atTheTable =
        DiscreteGaussianNodeNoise.onLattice(BITS, 2, DiscreteGaussianNodeNoise.TABULATED_FROM, unit);
    assertInstanceOf(TabulatedDiscreteGaussian.class, atTheTable.coordinate());
    assertEquals(DiscreteGaussianNodeNoise.TABULATED_FROM, atTheTable.sigmaUnits());
  }

  /** The message names the sigma, its units and the lattice, so that an operator sees which one is off. */
  @Test
  void sigmaOutsideTheSamplersRangeAndAnEmptyDimensionAreRefused() {
    Lattice lattice = Lattice.ofPowerOfTwo(-3);
    for (double sigma : new double[] {0, DiscreteGaussian.MAX_SIGMA * 0x1p-3}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> DiscreteGaussianNodeNoise.onLattice(BITS, 2, sigma, lattice));
      assertTrue(e.getMessage().contains("units of Lattice[2^-3]; the discrete Gaussian needs it in (0, 2^53 - 1)"),
          e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> DiscreteGaussianNodeNoise.onLattice(BITS, 0, 1, lattice));
  }

  /** A sum of another dimension is refused whole, not filled in part. */
  @Test
  void aSumOfAnotherDimensionIsRefused() {
    DiscreteGaussianNodeNoise noise = DiscreteGaussianNodeNoise.onLattice(BITS, 2, 3, Lattice.ofPowerOfTwo(0));
    long[] longer = new long[3];
    assertThrows(IllegalArgumentException.class, () -> noise.add(0, 1, longer));
    assertArrayEquals(new long[3], longer);
  }
}
