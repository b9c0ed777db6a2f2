package org.dpstream.core.privacy.tree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

class LatticeTest {

  private final Lattice lattice = Lattice.ofPowerOfTwo(-10);

  @Test
  void roundsToTheNearestPointWithTiesUp() {
    double gamma = 0x1p-10;
    assertEquals(3, lattice.toUnits(3 * gamma));
    assertEquals(3, lattice.toUnits(3.49 * gamma));
    assertEquals(4, lattice.toUnits(3.5 * gamma));
    assertEquals(-3, lattice.toUnits(-3.5 * gamma));
    assertEquals(3 * gamma, lattice.toValue(3));
  }

  @Test
  void valuesAreUnitsTimesTheSpacingAndLengthsMustAgree() {
    double[] values = new double[3];
    lattice.toValues(new long[] {3, -5, 0}, values);
    assertArrayEquals(new double[] {3 * 0x1p-10, -5 * 0x1p-10, 0}, values);
    assertThrows(IllegalArgumentException.class, () -> lattice.toValues(new long[2], new double[3]));
  }

  /** floor(a + z + 1/2) = a + floor(z + 1/2) for integer a: rounding noise is post-processing. */
  @Test
  void roundingIsShiftInvariantByLatticePoints() {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(11L);
    for (int i = 0; i < 100_000; i++) {
      long a = rng.nextLong(-1_000_000, 1_000_000);
      double z = (rng.nextDouble() - 0.5) * 1000;
      assertEquals(a + lattice.toUnits(z), lattice.toUnits(lattice.toValue(a) + z), "a=" + a + ", z=" + z);
    }
  }

  @Test
  void roundingErrorIsAtMostHalfAUnitAndSlackBoundsItsNorm() {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(12L);
    double gamma = lattice.granularity();
    int d = 7;
    for (int trial = 0; trial < 1000; trial++) {
      double l1 = 0;
      double l2 = 0;
      for (int i = 0; i < d; i++) {
        double x = rng.nextDouble() * 100 - 50;
        double error = Math.abs(lattice.toValue(lattice.toUnits(x)) - x);
        assertTrue(error <= gamma / 2, "error " + error);
        l1 += error;
        l2 += error * error;
      }
      assertTrue(l1 <= lattice.roundingSlack(d, 1));
      assertTrue(Math.sqrt(l2) <= lattice.roundingSlack(d, 2));
    }
    assertEquals(gamma / 2, lattice.roundingSlack(d, Double.POSITIVE_INFINITY));
    assertTrue(lattice.roundingSlack(d, 2) >= gamma / 2 * Math.sqrt(d));
  }

  @Test
  void nonFiniteAndOversizedValuesAreRejected() {
    assertThrows(ArithmeticException.class, () -> lattice.toUnits(Double.NaN));
    assertThrows(ArithmeticException.class, () -> lattice.toUnits(Double.POSITIVE_INFINITY));
    assertThrows(ArithmeticException.class, () -> lattice.toUnits(0x1p43)); // 2^53 units
    assertThrows(ArithmeticException.class, () -> lattice.toUnits(0x1p42)); // 2^52 units: the first one refused
    assertEquals((1L << 52) - 1, lattice.toUnits(0x1p42 - 0x1p-10));
    assertThrows(IllegalArgumentException.class, () -> lattice.toUnits(new double[2], new long[3]));
  }

  /** (gamma / 2) d^(1/q), rounded up by two ulps at most: an l2 slack of 4 coordinates is one whole gamma. */
  @Test
  void roundingSlackIsHalfAUnitTimesTheQthRootOfTheDimension() {
    double gamma = lattice.granularity();
    double l2 = lattice.roundingSlack(4, 2);
    assertTrue(l2 >= gamma && l2 <= gamma * (1 + 0x1p-50), "l2 slack " + l2);
    double l1 = lattice.roundingSlack(3, 1);
    assertTrue(l1 >= 1.5 * gamma && l1 <= 1.5 * gamma * (1 + 0x1p-50), "l1 slack " + l1);
    assertThrows(IllegalArgumentException.class, () -> lattice.roundingSlack(0, 2));
    assertThrows(IllegalArgumentException.class, () -> lattice.roundingSlack(4, 0.5));
    assertThrows(IllegalArgumentException.class, () -> lattice.roundingSlack(4, Double.NaN));
  }

  @Test
  void exponentsFromMinusToPlusAThousandMakeALattice() {
    assertEquals(-1000, Lattice.ofPowerOfTwo(-1000).exponent());
    assertEquals(1000, Lattice.ofPowerOfTwo(1000).exponent());
    assertThrows(IllegalArgumentException.class, () -> Lattice.ofPowerOfTwo(-1001));
    assertThrows(IllegalArgumentException.class, () -> Lattice.ofPowerOfTwo(1001));
  }

  @Test
  void forScaleKeepsTheRequestedBits() {
    Lattice fine = Lattice.forScale(10.0, 40); // 10 = 1.25 * 2^3, so gamma = 2^(3 - 40)
    assertEquals(-37, fine.exponent());
    for (double scale : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Lattice.forScale(scale, 40));
      assertTrue(e.getMessage().startsWith("scale must be positive and finite"), e.getMessage());
    }
  }
}
