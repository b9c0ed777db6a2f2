package org.dpstream.core.privacy.factorization;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

/**
 * The C side of the exact BLT: exact integer arithmetic, its distance to the real C x, and the neighbour bound the
 * calibration prices.
 */
class FixedPointBltTest {

  private static final BltStrategy HALF = BltStrategy.of(new double[] {0.5}, new double[] {0.25});

  /**
   * theta = 1/2, omega = 1/4 (exact dyadics) with X = 1000: S = (X + 1/2) / (1/2) = 2001, so f is the largest with
   * 2^f 2001 below 2^61 (2^50 2001 is 2^60.97), capped at 52: f = 50; and g the largest with 2^g (1/4) 2001 below
   * 2^61: g = 52. The parameters are exact, the slack 1 + (1/4) / (1/2) = 1.5.
   */
  @Test
  void fractionBitsAndSlackByHand() {
    FixedPointBlt fixed = FixedPointBlt.of(HALF, 1000);
    assertEquals(50, fixed.decayBits());
    assertEquals(52, fixed.scaleBits());
    assertEquals(HALF, fixed.strategy());
    assertEquals(1.5, fixed.roundingSlack(), 1e-15);
    assertTrue(fixed.roundingSlack() >= 1.5);
    assertTrue(fixed.admissibleBuffer(0, 2001) && !fixed.admissibleBuffer(0, 2002));
    assertEquals(1000, fixed.leafBound());
    assertEquals(1000, fixed.clamp(5000));
    assertEquals(-1000, fixed.clamp(-5000));
  }

  /**
   * One step by hand: theta = 1/2, omega = 1/4, buffer s = 7, leaf x = 3: R = 3 + round(7 / 4) = 3 + 2 = 5 and
   * s' = 3 + round(7 / 2) = 3 + 4 = 7 (round half up); with s = -7: R = 3 + round(-1.75) = 1, s' = 3 + round(-3.5)
   * = 3 - 3 = 0.
   */
  @Test
  void oneStepByHand() {
    FixedPointBlt fixed = FixedPointBlt.of(HALF, 1000);
    long[] row = new long[2];
    long[] next = new long[2];
    fixed.step(new long[] {3, 3}, new long[] {7, -7}, next, row);
    assertArrayEquals(new long[] {5, 1}, row);
    assertArrayEquals(new long[] {7, 0}, next);
    fixed.step(new long[] {3, -2}, null, next, row);
    assertArrayEquals(new long[] {3, -2}, row, "an epoch's first row is its leaf");
    assertArrayEquals(new long[] {3, -2}, next);
  }

  /** The integer recursion against BigInteger arithmetic on the same fixed-point values, over 2000 random steps. */
  @Test
  void arithmeticIsExact() {
    BltStrategy optimised = BltOptimizer.forHorizon(2000);
    long leafBound = 1L << 27;
    FixedPointBlt fixed = FixedPointBlt.of(optimised, leafBound);
    int m = fixed.buffers();
    double[] decays = fixed.strategy().decays();
    double[] scales = fixed.strategy().scales();
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(5);
    long[] buffers = null;
    BigInteger[] reference = new BigInteger[m];
    long[] row = new long[1];
    for (int t = 1; t <= 2000; t++) {
      long x = rng.nextLong(2 * leafBound + 1) - leafBound;
      long[] next = new long[m];
      fixed.step(new long[] {x}, buffers, next, row);
      // sum_i omega'_i s_i exactly, at the scale 2^60 (omega' has g <= 52 fraction bits), then rounded.
      BigInteger weighted = BigInteger.ZERO;
      for (int i = 0; i < m && t > 1; i++) {
        weighted = weighted.add(exact(scales[i], 60).multiply(BigInteger.valueOf(buffers[i])));
      }
      long expectedRow = x + roundShift(weighted, 60).longValueExact();
      assertEquals(expectedRow, row[0], "row at t=" + t);
      for (int i = 0; i < m; i++) {
        BigInteger product = t == 1 ? BigInteger.ZERO : exact(decays[i], fixed.decayBits()).multiply(BigInteger.valueOf(buffers[i]));
        reference[i] = BigInteger.valueOf(x).add(roundShift(product, fixed.decayBits()));
        assertEquals(reference[i].longValueExact(), next[i], "buffer " + i + " at t=" + t);
        assertTrue(fixed.admissibleBuffer(i, next[i]));
      }
      buffers = next;
    }
  }

  /** value 2^bits as an integer (exact: the value has at most that many fraction bits). */
  private static BigInteger exact(double value, int bits) {
    return new BigDecimal(value).multiply(new BigDecimal(BigInteger.ONE.shiftLeft(bits))).toBigIntegerExact();
  }

  /** floor(P / 2^bits + 1/2). */
  private static BigInteger roundShift(BigInteger product, int bits) {
    return product.add(BigInteger.ONE.shiftLeft(bits - 1)).shiftRight(bits);
  }

  /**
   * R(x) stays within the slack of the real C' x, and neighbours (one leaf moved by delta) differ by c_(t-i) delta
   * plus less than the slack per row: the two facts behind the calibration's F_eff. Leaves at the clamp bound, the
   * worst case for the buffers, over a whole epoch of 4096 steps.
   */
  @Test
  void rowsAreWithinTheSlackOfCxAndNeighboursWithinTheBound() {
    int n = 4096;
    long leafBound = 1L << 25;
    FixedPointBlt fixed = FixedPointBlt.of(BltOptimizer.forHorizon(n), leafBound);
    double[] c = fixed.strategy().coefficients(n);
    double slack = fixed.roundingSlack();
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(9);
    long[] leaves = new long[n];
    for (int t = 0; t < n; t++) {
      leaves[t] = rng.nextBoolean() ? leafBound : -leafBound + rng.nextLong(3);
    }
    int changed = 100;
    long[] neighbour = leaves.clone();
    neighbour[changed] = -leaves[changed];
    long delta = leaves[changed] - neighbour[changed];
    long[] rows = rows(fixed, leaves);
    long[] neighbourRows = rows(fixed, neighbour);
    double largestDistance = 0;
    double largestExtra = 0;
    for (int t = 0; t < n; t++) {
      // C' x in exact decimal arithmetic (the coefficients are the strategy's, rounded to nearest: 1e-16 relative)
      BigDecimal cx = BigDecimal.ZERO;
      if (t % 97 == 0 || t == n - 1) {
        for (int s = 0; s <= t; s++) {
          cx = cx.add(new BigDecimal(c[t - s]).multiply(BigDecimal.valueOf(leaves[s]), MathContext.DECIMAL128));
        }
        largestDistance = Math.max(largestDistance, Math.abs(cx.doubleValue() - rows[t]));
      }
      double extra = t < changed ? Math.abs(neighbourRows[t] - rows[t])
          : Math.abs((rows[t] - neighbourRows[t]) - c[t - changed] * delta);
      largestExtra = Math.max(largestExtra, extra);
      if (t <= changed) {
        assertEquals(t == changed ? delta : 0, rows[t] - neighbourRows[t], "rows up to the changed leaf, t=" + t);
      }
    }
    // rounding to nearest of the coefficients c_k in doubles adds about n 2^-53 X per row: far below a unit.
    assertTrue(largestDistance < slack + 1e-3, largestDistance + " vs slack " + slack);
    assertTrue(largestExtra < slack + 1e-3, largestExtra + " vs slack " + slack);
    assertTrue(largestExtra > 1, "the rounding does move neighbours apart: " + largestExtra);
  }

  private static long[] rows(FixedPointBlt fixed, long[] leaves) {
    long[] rows = new long[leaves.length];
    long[] buffers = null;
    long[] row = new long[1];
    for (int t = 0; t < leaves.length; t++) {
      long[] next = new long[fixed.buffers()];
      fixed.step(new long[] {fixed.clamp(leaves[t])}, buffers, next, row);
      rows[t] = row[0];
      buffers = next;
    }
    return rows;
  }

  /**
   * The priced shift: F_eff(t) = (sqrt(F(t)) + (gamma kappa sqrt(d) / S) sqrt(t - 1))^2 is at least F(t), equal at
   * t = 1, and the extra term as computed by hand for gamma = 2^-10, d = 4, S = 2.
   */
  @Test
  void shiftNormsAddTheRoundingToTheColumnNorms() {
    FixedPointBlt fixed = FixedPointBlt.of(BltOptimizer.forHorizon(64), 1L << 20);
    long[] steps = {1, 2, 10, 64};
    double[] columns = fixed.strategy().squaredColumnNormUpperBounds(steps);
    double[] widened = fixed.shiftNorms(0x1p-10, 4, 2).upperBoundsAt(steps);
    double perRow = 0x1p-10 * fixed.roundingSlack() * 2 / 2;
    for (int s = 0; s < steps.length; s++) {
      double expected = Math.pow(Math.sqrt(columns[s]) + perRow * Math.sqrt(steps[s] - 1), 2);
      assertEquals(expected, widened[s], 1e-12 * expected);
      assertTrue(widened[s] >= expected && widened[s] >= columns[s]);
    }
    assertEquals(columns[0], widened[0], 1e-14, "no rounding term at t = 1");
  }

  /**
   * theta = 1 - 3 2^-12 with X = 2^39: f = 11 would overflow ((X + 1/2) 2^22 is above 2^61), and at f = 10 the decay
   * rounds to 1023 / 1024, whose gap 2^-10 is a third away from the real 3 2^-12: refused, not applied far off.
   */
  @Test
  void aDecayTooCoarselyQuantisedIsRefused() {
    BltStrategy nearOne = BltStrategy.of(new double[] {1 - 3 * 0x1p-12}, new double[] {0x1p-4});
    IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> FixedPointBlt.of(nearOne, 1L << 39));
    assertTrue(refused.getMessage().contains("no fixed point within 2^-6"), refused.getMessage());
    assertArrayEquals(nearOne.decays(), FixedPointBlt.of(nearOne, 1L << 37).strategy().decays(),
        "with two bits more headroom the decay is exact");
  }

  /**
   * A decay that rounds to 0 at the bits the largest decay leaves (theta = 2^-12 at f = 10, set by theta = 1 - 2^-10
   * with X = 2^40) is no fixed point: it is refused with the lattice advice, not turned into an inadmissible BLT.
   */
  @Test
  void aDecayRoundingToZeroIsRefused() {
    BltStrategy tinyAndLarge = BltStrategy.of(new double[] {0x1p-12, 1 - 0x1p-10}, new double[] {0x1p-14, 0x1p-12});
    IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> FixedPointBlt.of(tinyAndLarge, 1L << 40));
    assertTrue(refused.getMessage().contains("no fixed point within 2^-6"), refused.getMessage());
  }

  /** The scales' closeness is checked as the decays' is: a scale that rounds away at the bits left is refused. */
  @Test
  void aScaleTooCoarselyQuantisedIsRefused() {
    BltStrategy smallScale = BltStrategy.of(new double[] {0.5, 1 - 0x1p-10}, new double[] {0x1p-30, 0x1p-12});
    IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> FixedPointBlt.of(smallScale, 1L << 40));
    assertTrue(refused.getMessage().contains("no fixed point within 2^-6"), refused.getMessage());
  }

  /** What the calibration prices is only defined for a positive lattice spacing, dimension and sensitivity. */
  @Test
  void shiftNormsNeedPositiveArguments() {
    FixedPointBlt fixed = FixedPointBlt.of(HALF, 1000);
    assertThrows(IllegalArgumentException.class, () -> fixed.shiftNorms(0, 4, 2));
    assertThrows(IllegalArgumentException.class, () -> fixed.shiftNorms(0x1p-10, 0, 2));
    assertThrows(IllegalArgumentException.class, () -> fixed.shiftNorms(0x1p-10, 4, 0));
    assertThrows(IllegalArgumentException.class, () -> fixed.shiftNorms(Double.NaN, 4, 2));
    assertThrows(IllegalArgumentException.class, () -> fixed.shiftNorms(0x1p-10, 4, Double.NaN));
    // one coordinate is a dimension: (sqrt(69/64) + 2^-10 1.5 sqrt(2))^2 at t = 3
    double expected = Math.pow(Math.sqrt(69.0 / 64) + 0x1p-10 * 1.5 * Math.sqrt(2), 2);
    assertEquals(expected, fixed.shiftNorms(0x1p-10, 1, 1).upperBoundsAt(new long[] {3})[0], 1e-12 * expected);
  }

  @Test
  void aLeafBoundTooLargeForTheDecaysIsRefused() {
    BltStrategy longHorizon = BltOptimizer.forHorizon(1_000_000);
    IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> FixedPointBlt.of(longHorizon, 1L << 31));
    assertTrue(refused.getMessage().contains("use a coarser lattice"), refused.getMessage());
    assertTrue(refused.getMessage().contains("theta=" + Arrays.toString(longHorizon.decays())), refused.getMessage());
    assertTrue(refused.getMessage().contains("omega=" + Arrays.toString(longHorizon.scales())), refused.getMessage());
    assertThrows(IllegalArgumentException.class, () -> FixedPointBlt.of(HALF, 0));
    IllegalArgumentException beyondTheMantissa =
        assertThrows(IllegalArgumentException.class, () -> FixedPointBlt.of(HALF, (1L << 52) + 1));
    assertTrue(beyondTheMantissa.getMessage().startsWith("leaf bound must be in [1, 2^52]"),
        beyondTheMantissa.getMessage());
    // both ends of the range are admitted
    assertEquals(1, FixedPointBlt.of(HALF, 1).leafBound());
    assertEquals(1L << 52, FixedPointBlt.of(HALF, 1L << 52).leafBound());
    // The same horizon on a coarser lattice fits.
    assertTrue(FixedPointBlt.of(longHorizon, 1L << 17).decayBits() > 20);
  }
}
