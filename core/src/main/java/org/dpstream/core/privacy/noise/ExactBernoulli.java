package org.dpstream.core.privacy.noise;

import java.math.BigInteger;

/**
 * Bernoulli draws with rational parameters from integer arithmetic only (Canonne, Kamath and Steinke
 * 2020, section 5): Bernoulli(a / b) compares a uniform integer in [0, b) with a, and Bernoulli(exp(-a /
 * b)) uses von Neumann's series trick, so no floating-point value ever decides an outcome.
 *
 * <p>Bits come from {@link RandomBits}, which decides Bernoulli(a / b) from two bits on average (a uniform
 * real compared lazily with the binary expansion of a / b) and never hands out a bit twice; wide uniforms
 * from {@link #uniformBelow}.
 */
final class ExactBernoulli {

  private ExactBernoulli() {}

  /** Bernoulli(numerator / denominator), 0 &lt;= numerator &lt;= denominator, denominator &gt; 0. */
  static boolean withProbability(RandomBits bits, long numerator, long denominator) {
    return bits.bernoulli(numerator, denominator);
  }

  /** Bernoulli(numerator / denominator) for wide numbers. */
  static boolean withProbability(RandomBits bits, BigInteger numerator, BigInteger denominator) {
    return numerator.compareTo(denominator) >= 0 || uniformBelow(bits, denominator).compareTo(numerator) < 0;
  }

  /** Bernoulli(exp(-numerator / denominator)), numerator &gt;= 0, denominator &gt; 0. */
  static boolean expMinus(RandomBits bits, long numerator, long denominator) {
    if (numerator < denominator) {
      return expMinusAtMostOne(bits, numerator, denominator); // the common case: no division
    }
    long whole = numerator / denominator;
    // exp(-g) = exp(-1)^floor(g) exp(-(g - floor(g))): independent factors, stop at the first failure.
    for (long i = 0; i < whole; i++) {
      if (!expMinusOne(bits)) {
        return false;
      }
    }
    return expMinusAtMostOne(bits, numerator - whole * denominator, denominator);
  }

  /**
   * Bernoulli(exp(-1)): the procedure of {@link #expMinusAtMostOne} at g = 1, whose draws Bernoulli(g / k)
   * are then Bernoulli(1 / k) (and the first is certain).
   */
  static boolean expMinusOne(RandomBits bits) {
    long k = 2;
    while (bits.bernoulli(1, k)) {
      k++;
    }
    return (k & 1) == 1;
  }

  /** {@link #expMinus(RandomBits, long, long)} for wide numbers. */
  static boolean expMinus(RandomBits bits, BigInteger numerator, BigInteger denominator) {
    BigInteger[] wholeAndRest = numerator.divideAndRemainder(denominator);
    BigInteger whole = wholeAndRest[0];
    for (BigInteger i = BigInteger.ZERO; i.compareTo(whole) < 0; i = i.add(BigInteger.ONE)) {
      if (!expMinusOne(bits)) {
        return false;
      }
    }
    BigInteger rest = wholeAndRest[1];
    if (denominator.bitLength() < Long.SIZE) {
      return expMinusAtMostOne(bits, rest.longValue(), denominator.longValue());
    }
    long k = 1;
    // Bernoulli(g / k) = Bernoulli(1 / k) and Bernoulli(g), independent: the cheap draw first.
    while (withProbability(bits, 1, k) && withProbability(bits, rest, denominator)) {
      k++;
    }
    return (k & 1) == 1;
  }

  /**
   * Bernoulli(exp(-g)) for g = numerator / denominator in [0, 1]: draw A_k ~ Bernoulli(g / k) for k =
   * 1, 2, ... until the first A_k = 0; the result is whether that k is odd.
   */
  private static boolean expMinusAtMostOne(RandomBits bits, long numerator, long denominator) {
    long k = 1;
    // Non-short-circuit &: both draws always, one unpredictable branch per round instead of two.
    while (withProbability(bits, 1, k) & withProbability(bits, numerator, denominator)) {
      k++;
    }
    return (k & 1) == 1;
  }

  /**
   * Bernoulli(exp(-r^2 / (2 n^2))) for 0 &lt;= r &lt; n: the von Neumann procedure with Bernoulli(g / k)
   * drawn as Bernoulli(1 / k), Bernoulli(1 / 2), Bernoulli(r / n) and Bernoulli(r / n), independent, so
   * n^2 is never formed.
   */
  static boolean expMinusHalfSquareOfRatio(RandomBits bits, long r, long n) {
    if (r == 0) {
      return true;
    }
    long k = 1;
    while (withProbability(bits, 1, k) & bits.nextBit()
        & withProbability(bits, r, n) & withProbability(bits, r, n)) {
      k++;
    }
    return (k & 1) == 1;
  }

  /** A uniform integer in [0, bound), bound &gt; 0, by rejection from whole bytes of random bits. */
  static BigInteger uniformBelow(RandomBits bits, BigInteger bound) {
    int bitLength = bound.bitLength();
    if (bitLength < Long.SIZE) {
      return BigInteger.valueOf(bits.uniformBelow(bound.longValue()));
    }
    byte[] bytes = new byte[(bitLength + 7) / 8];
    int topMask = 0xFF >>> (bytes.length * 8 - bitLength);
    while (true) {
      for (int i = 0; i < bytes.length; i += Long.BYTES) {
        long word = bits.nextWord();
        for (int j = i; j < Math.min(i + Long.BYTES, bytes.length); j++) {
          bytes[j] = (byte) word;
          word >>>= 8;
        }
      }
      bytes[0] &= (byte) topMask;
      BigInteger candidate = new BigInteger(1, bytes);
      if (candidate.compareTo(bound) < 0) {
        return candidate; // accepted with probability > 1/2
      }
    }
  }
}
