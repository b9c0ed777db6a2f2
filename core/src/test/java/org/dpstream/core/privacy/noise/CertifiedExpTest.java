package org.dpstream.core.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import org.junit.jupiter.api.Test;

/** The certified bounds on exp(-a 2^-shift) against a 90-digit decimal oracle, and their width. */
class CertifiedExpTest {

  private static final MathContext DIGITS = DecimalExp.DIGITS;

  /** lo &lt;= 2^work exp(-x) &lt;= hi, and hi - lo at most 2 units: enough terms, the right parity for each side. */
  @Test
  void boundsBracketTheValueWithinTwoUnits() {
    int work = 100;
    long[][] cases = {{0, 0}, {1, 0}, {1, 1}, {3, 2}, {255, 8}, {1, 17}, {65_535, 16}, {12_345, 16}};
    for (long[] c : cases) {
      BigInteger[] bounds = CertifiedExp.expMinus(BigInteger.valueOf(c[0]), (int) c[1], work);
      BigDecimal x = new BigDecimal(c[0]).divide(new BigDecimal(BigInteger.ONE.shiftLeft((int) c[1])), DIGITS);
      BigDecimal scaled = DecimalExp.expMinus(x).multiply(new BigDecimal(BigInteger.ONE.shiftLeft(work)), DIGITS);
      String what = c[0] + " 2^-" + c[1];
      assertTrue(new BigDecimal(bounds[0]).compareTo(scaled) <= 0, what + ": lower " + bounds[0] + " > " + scaled);
      assertTrue(new BigDecimal(bounds[1]).compareTo(scaled) >= 0, what + ": upper " + bounds[1] + " < " + scaled);
      assertTrue(bounds[1].subtract(bounds[0]).compareTo(BigInteger.TWO) <= 0, what + ": width "
          + bounds[1].subtract(bounds[0]));
    }
  }

  /** With one term (1 - x against 1 - x + x^2/2) at x = 1/2: exactly 1/2 and 5/8 in units of 2^-3. */
  @Test
  void theExplicitTermCountGivesThoseTwoPartialSums() {
    BigInteger[] bounds = CertifiedExp.expMinus(BigInteger.ONE, 1, 3, 1);
    assertEquals(BigInteger.valueOf(4), bounds[0]);
    assertEquals(BigInteger.valueOf(5), bounds[1]);
  }

  @Test
  void refusesArgumentsOutsideTheSeriesRange() {
    assertThrows(IllegalArgumentException.class, () -> CertifiedExp.expMinus(BigInteger.valueOf(5), 2, 10, 3));
    assertThrows(IllegalArgumentException.class, () -> CertifiedExp.expMinus(BigInteger.valueOf(-1), 2, 10, 3));
    assertThrows(IllegalArgumentException.class, () -> CertifiedExp.expMinus(BigInteger.ONE, -1, 10, 3));
    assertThrows(IllegalArgumentException.class, () -> CertifiedExp.expMinus(BigInteger.ONE, 2, 10, 0));
    // x = 1 exactly is inside.
    BigInteger[] one = CertifiedExp.expMinus(BigInteger.valueOf(4), 2, 20, 12);
    assertTrue(one[0].compareTo(one[1]) <= 0);
  }

  /**
   * Without an explicit count the series stops at the smallest m with (m + 1)! &gt; 2^(work + 1): enough for the
   * width, and no term more (the vertex choice's tables pay for each).
   */
  @Test
  void theDefaultTermCountIsTheSmallestThatCertifiesTheWidth() {
    int shift = 16;
    // x = 1, 3/4 and 0.188: near 1 one term more or fewer moves the bounds' last unit.
    for (long a : new long[] {1L << shift, 3L << (shift - 2), 12_345}) {
      for (int work = 1; work <= 80; work++) {
        int terms = 1;
        while (CertifiedExp.factorial(terms + 1).compareTo(BigInteger.ONE.shiftLeft(work + 1)) <= 0) {
          terms++;
        }
        BigInteger x = BigInteger.valueOf(a);
        assertArrayEquals(CertifiedExp.expMinus(x, shift, work, terms), CertifiedExp.expMinus(x, shift, work),
            "a = " + a + ", work " + work + ": " + terms + " terms");
      }
    }
  }
}
