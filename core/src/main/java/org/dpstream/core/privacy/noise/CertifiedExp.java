package org.dpstream.core.privacy.noise;

import java.math.BigInteger;

/**
 * Proven bounds on exp(-x) for a dyadic x = a 2^-shift in [0, 1], in integer arithmetic: the alternating
 * series 1 - x + x^2/2 - ... has decreasing terms there, so consecutive partial sums bracket exp(-x); the
 * partial sums are exact rationals, rounded down and up. Written by hand because no library we use gives
 * directed-rounding bounds (BigDecimal has no exp; Commons Math's is a double).
 */
final class CertifiedExp {

  private CertifiedExp() {}

  /**
   * [lo, hi] with lo &lt;= 2^work exp(-a 2^-shift) &lt;= hi, from the partial sums of {@code terms} and
   * {@code terms + 1} terms (their gap is the next term, x^(terms + 1) / (terms + 1)!).
   *
   * @throws IllegalArgumentException unless 0 &lt;= a &lt;= 2^shift, shift &gt;= 0 and terms &gt;= 1
   */
  static BigInteger[] expMinus(BigInteger a, int shift, int work, int terms) {
    if (shift < 0 || terms < 1 || a.signum() < 0 || a.compareTo(BigInteger.ONE.shiftLeft(shift)) > 0) {
      throw new IllegalArgumentException("need 0 <= a <= 2^shift and terms >= 1: a = " + a + ", shift = " + shift);
    }
    // Partial sums P_m = sum_(k <= m) (-1)^k x^k / k! = N_m / (2^(shift m) m!), N_m integer, with
    // terms T_k = x^k / k! 2^(shift m) m! = a^k 2^(shift (m - k)) (m! / k!). T_(k+1) = T_k a 2^-shift / (k + 1)
    // is exact (the shift and the division leave integers), so each term costs one product and two small
    // exact steps, not a power and two factorials: the vertex choice's tables (1,792 calls) are built at its
    // first draw, inside the learning loop.
    BigInteger[] bounds = new BigInteger[2];
    for (int m = terms; m <= terms + 1; m++) {
      BigInteger mFactorial = factorial(m);
      BigInteger term = mFactorial.shiftLeft(shift * m);
      BigInteger numerator = term;
      for (int k = 1; k <= m; k++) {
        term = term.multiply(a).shiftRight(shift).divide(BigInteger.valueOf(k));
        numerator = (k & 1) == 0 ? numerator.add(term) : numerator.subtract(term);
      }
      BigInteger denominator = mFactorial.shiftLeft(shift * m);
      BigInteger scaled = numerator.shiftLeft(work);
      if ((m & 1) == 1) {
        bounds[0] = scaled.divide(denominator); // odd m: P_m <= exp(-x), round down
      } else {
        bounds[1] = ceilDivide(scaled, denominator); // even m: P_m >= exp(-x), round up
      }
    }
    return bounds;
  }

  /** The same with enough terms for gap below 2^-work: the smallest m with (m + 1)! &gt; 2^(work + 1). */
  static BigInteger[] expMinus(BigInteger a, int shift, int work) {
    BigInteger limit = BigInteger.ONE.shiftLeft(work + 1);
    int terms = 1;
    BigInteger nextFactorial = BigInteger.TWO; // (terms + 1)!
    while (nextFactorial.compareTo(limit) <= 0) {
      terms++;
      nextFactorial = nextFactorial.multiply(BigInteger.valueOf(terms + 1));
    }
    return expMinus(a, shift, work, terms);
  }

  static BigInteger factorial(int m) {
    BigInteger result = BigInteger.ONE;
    for (int i = 2; i <= m; i++) {
      result = result.multiply(BigInteger.valueOf(i));
    }
    return result;
  }

  static BigInteger ceilDivide(BigInteger numerator, BigInteger denominator) {
    BigInteger[] quotientAndRemainder = numerator.divideAndRemainder(denominator);
    BigInteger quotient = quotientAndRemainder[0];
    return quotientAndRemainder[1].signum() == 0 ? quotient : quotient.add(BigInteger.ONE);
  }
}
