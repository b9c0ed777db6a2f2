package org.dpstream.core.privacy.factorization;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class BltStrategyTest {

  /**
   * One buffer, theta = 1/2, omega = 1/4, worked by hand: c = (1, 1/4, 1/8, 1/16, ..). In u = 1/x, f(u) = 1 +
   * (1/4) / (u - 1/2) vanishes at u = 1/4, and f'(1/4) = -(1/4) / (1/4)^2 = -4, so C^{-1} is the BLT theta^ = 1/4,
   * omega^ = -1/4: (1 - x/4) / (1 - x/2) times (1 - x/2) / (1 - x/4) is 1. Its coefficients are (1, -1/4,
   * -1/16, ..), so B = A C^{-1} has b = (1, 3/4, 11/16, ..) and beta = 1 / c(1) = 1 / (1 + (1/4) / (1/2)) = 2/3.
   * F(3) = 1 + 1/16 + 1/64 = 69/64; E(3) = 1 + 9/16 + 121/256 = 521/256. All exact in binary.
   */
  @Test
  void oneBufferWorkedByHand() {
    BltStrategy strategy = BltStrategy.of(new double[] {0.5}, new double[] {0.25});
    assertArrayEquals(new double[] {1, 0.25, 0.125, 0.0625}, strategy.coefficients(4));
    assertArrayEquals(new double[] {0.25}, strategy.inverseDecays());
    assertArrayEquals(new double[] {-0.25}, strategy.inverseScales());
    assertEquals(1.0, strategy.squaredColumnNorm(1), 0);
    assertEquals(69.0 / 64, strategy.squaredColumnNorm(3), 1e-15);
    assertEquals(521.0 / 256, strategy.squaredErrorRowNorm(3), 1e-15);
    assertEquals(69.0 / 64 * 521.0 / 256, strategy.maxLoss(3), 1e-14);
    // For all n: F(infinity) = 1 + (1/16) / (1 - 1/4) = 13/12; b_k -> beta = 2/3, so E(n) ~ (4/9) n.
    assertEquals(13.0 / 12, strategy.squaredColumnNorm(1L << 40), 1e-15);
    assertEquals(4.0 / 9, strategy.squaredErrorRowNorm(1L << 40) / (1L << 40), 1e-9);
    double[] bounds = strategy.squaredColumnNormUpperBounds(new long[] {1, 2, 3});
    assertEquals(1.0, bounds[0], 0);
    assertTrue(bounds[1] >= 1.0625 && bounds[1] <= 1.0625 * (1 + 1e-14), () -> "F(2) bound " + bounds[1]);
    assertTrue(bounds[2] >= 69.0 / 64 && bounds[2] <= 69.0 / 64 * (1 + 1e-14), () -> "F(3) bound " + bounds[2]);
  }

  /** The closed forms against the direct sums: c_k from the parameters, b_k by streaming C^{-1} on an impulse. */
  @ParameterizedTest
  @ValueSource(longs = {10, 1000, 10_000})
  void closedFormsMatchTheDirectSums(long horizon) {
    BltStrategy strategy = BltOptimizer.forHorizon(horizon);
    int n = (int) horizon;
    double[] c = strategy.coefficients(n);
    double columnNorm = 0;
    for (double ck : c) {
      columnNorm += ck * ck;
    }
    double rowNorm = 0;
    for (double bk : errorCoefficients(strategy, n)) {
      rowNorm += bk * bk;
    }
    assertEquals(columnNorm, strategy.squaredColumnNorm(horizon), 1e-10 * columnNorm);
    assertEquals(rowNorm, strategy.squaredErrorRowNorm(horizon), 1e-9 * rowNorm);
  }

  /** b_0 .. b_{count-1} of B = A C^{-1}, by streaming an impulse through C^{-1}'s buffers. */
  private static double[] errorCoefficients(BltStrategy strategy, int count) {
    double[] theta = strategy.decays();
    double[] omega = strategy.scales();
    double[] buffers = new double[theta.length];
    double[] b = new double[count];
    double sum = 0;
    for (int t = 0; t < count; t++) {
      double w = t == 0 ? 1 : 0; // impulse through C^{-1}
      for (int i = 0; i < theta.length; i++) {
        w -= omega[i] * buffers[i];
      }
      for (int i = 0; i < theta.length; i++) {
        buffers[i] = theta[i] * buffers[i] + w;
      }
      sum += w; // b_t = sum_{s <= t} (C^{-1})_{s0}
      b[t] = sum;
    }
    return b;
  }

  /**
   * The closed form of the increments' variance against its definition, row start + length of B minus row start:
   * sum_{k < length} b_k^2 + sum_{m < start} (b_(length+m) - b_m)^2, with b streamed. Two buffers of different
   * decays, so that every cross term of the closed form counts.
   */
  @Test
  void incrementNormsMatchTheDifferenceOfTwoRowsOfB() {
    BltStrategy strategy = BltStrategy.of(new double[] {0.5, 0.9}, new double[] {0.1, 0.02});
    double[] b = errorCoefficients(strategy, 40);
    for (int[] startAndLength : new int[][] {{0, 1}, {0, 7}, {1, 1}, {3, 4}, {7, 10}, {20, 13}}) {
      int start = startAndLength[0];
      int length = startAndLength[1];
      double direct = 0;
      for (int k = 0; k < length; k++) {
        direct += b[k] * b[k];
      }
      for (int m = 0; m < start; m++) {
        double difference = b[length + m] - b[m];
        direct += difference * difference;
      }
      assertEquals(direct, strategy.squaredErrorIncrementNorm(start, length), 1e-12 * direct,
          "start " + start + ", length " + length);
    }
    assertEquals(strategy.squaredErrorRowNorm(9), strategy.squaredErrorIncrementNorm(0, 9), 0);
    assertThrows(IllegalArgumentException.class, () -> strategy.squaredErrorIncrementNorm(-1, 3));
    assertThrows(IllegalArgumentException.class, () -> strategy.squaredErrorIncrementNorm(2, 0));
  }

  /** Norms of no rows are not asked for: each refuses 0 rows instead of answering for a matrix that is not there. */
  @Test
  void normsOfNoRowsAreRefused() {
    BltStrategy strategy = BltStrategy.of(new double[] {0.5}, new double[] {0.25});
    assertThrows(IllegalArgumentException.class, () -> strategy.squaredColumnNorm(0));
    assertThrows(IllegalArgumentException.class, () -> strategy.squaredErrorRowNorm(0));
    assertThrows(IllegalArgumentException.class, () -> strategy.squaredColumnNormUpperBounds(new long[] {1, 0}));
  }

  /** Equal exactly when both parameter vectors are; the hash sees both, so strategies of other horizons spread. */
  @Test
  void equalityIsByDecaysAndScales() {
    BltStrategy strategy = BltStrategy.of(new double[] {0.5, 0.9}, new double[] {0.1, 0.02});
    BltStrategy same = BltStrategy.of(new double[] {0.9, 0.5}, new double[] {0.02, 0.1});
    BltStrategy otherDecays = BltStrategy.of(new double[] {0.5, 0.8}, new double[] {0.1, 0.02});
    BltStrategy otherScales = BltStrategy.of(new double[] {0.5, 0.9}, new double[] {0.1, 0.03});
    assertEquals(strategy, same);
    assertEquals(strategy.hashCode(), same.hashCode());
    assertNotEquals(strategy, otherDecays);
    assertNotEquals(strategy, otherScales);
    assertNotEquals(strategy, (Object) "BltStrategy");
    assertNotEquals(strategy.hashCode(), otherDecays.hashCode(), "the hash depends on the decays");
    assertNotEquals(strategy.hashCode(), otherScales.hashCode(), "the hash depends on the scales");
  }

  /**
   * The rigorous bounds against exact rational arithmetic (BigDecimal, 60 digits, far below the gap checked):
   * never below the exact F(t) of the double parameters, and tight to 1e-12.
   */
  @Test
  void upperBoundsHoldAgainstExactArithmetic() {
    BltStrategy strategy = BltOptimizer.forHorizon(10_000);
    long[] steps = {1, 2, 3, 17, 200, 1500};
    double[] bounds = strategy.squaredColumnNormUpperBounds(steps);
    MathContext context = new MathContext(60);
    double[] theta = strategy.decays();
    double[] omega = strategy.scales();
    BigDecimal[] powers = new BigDecimal[theta.length];
    java.util.Arrays.fill(powers, BigDecimal.ONE);
    BigDecimal sum = BigDecimal.ONE;
    int next = 1;
    for (long k = 1; next < steps.length; k++) {
      while (next < steps.length && steps[next] == k) {
        BigDecimal exact = sum;
        double bound = bounds[next];
        assertTrue(new BigDecimal(bound).compareTo(exact) >= 0, "t=" + k + ": bound " + bound + " < exact " + exact);
        assertTrue(bound <= exact.doubleValue() * (1 + 1e-12), "t=" + k + ": bound " + bound + " loose");
        next++;
      }
      BigDecimal ck = BigDecimal.ZERO;
      for (int i = 0; i < theta.length; i++) {
        ck = ck.add(new BigDecimal(omega[i]).multiply(powers[i], context), context);
        powers[i] = powers[i].multiply(new BigDecimal(theta[i]), context);
      }
      sum = sum.add(ck.multiply(ck, context), context);
    }
    assertEquals(1.0, bounds[0], 0);
  }

  /** Rounded down at every product, so below the exact power; squaring makes it loose by at most 2^(bits) ulps. */
  @Test
  void powerLowerBoundIsBelowTheExactPower() {
    double r = 0.9999123456789;
    for (long count : new long[] {0, 1, 2, 3, 1000, 123_457}) {
      BigDecimal exact = new BigDecimal(r).pow((int) count, new MathContext(80));
      double lower = BltStrategy.powerLowerBound(r, count);
      assertTrue(new BigDecimal(lower).compareTo(exact) <= 0, "count " + count);
      // each squaring doubles the relative error of what it squares: 2^17 ulps at most here
      assertTrue(lower >= exact.doubleValue() * (1 - 1e-10), "count " + count);
    }
  }

  @Test
  void inadmissibleParametersAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> BltStrategy.of(new double[] {0.5}, new double[] {0.5}),
        "score 1");
    assertThrows(IllegalArgumentException.class, () -> BltStrategy.of(new double[] {1.0}, new double[] {0.1}));
    IllegalArgumentException zeroDecay =
        assertThrows(IllegalArgumentException.class, () -> BltStrategy.of(new double[] {0.0}, new double[] {0.1}));
    assertTrue(zeroDecay.getMessage().startsWith("BLT decays must be distinct and in (0, 1 - 2^-50]"),
        zeroDecay.getMessage());
    IllegalArgumentException zeroScale =
        assertThrows(IllegalArgumentException.class, () -> BltStrategy.of(new double[] {0.5}, new double[] {0.0}));
    assertTrue(zeroScale.getMessage().startsWith("BLT scales must be positive and finite"), zeroScale.getMessage());
    IllegalArgumentException infiniteScale = assertThrows(IllegalArgumentException.class,
        () -> BltStrategy.of(new double[] {0.5}, new double[] {Double.POSITIVE_INFINITY}));
    assertTrue(infiniteScale.getMessage().startsWith("BLT scales must be positive and finite"),
        infiniteScale.getMessage());
    // the largest decay admitted, 1 - 2^-50, is admitted
    assertEquals(1 - 0x1p-50, BltStrategy.of(new double[] {1 - 0x1p-50}, new double[] {0.5}).decays()[0], 0);
    assertThrows(IllegalArgumentException.class,
        () -> BltStrategy.of(new double[] {0.5, 0.5}, new double[] {0.1, 0.1}), "equal decays");
    assertThrows(IllegalArgumentException.class, () -> BltStrategy.of(new double[] {0.5}, new double[] {-0.1}));
    assertThrows(IllegalArgumentException.class, () -> BltStrategy.of(new double[] {0.5}, new double[] {0.1, 0.1}));
    // order does not matter: the strategy sorts by decay
    assertEquals(BltStrategy.of(new double[] {0.9, 0.5}, new double[] {0.01, 0.2}),
        BltStrategy.of(new double[] {0.5, 0.9}, new double[] {0.2, 0.01}));
  }
}
