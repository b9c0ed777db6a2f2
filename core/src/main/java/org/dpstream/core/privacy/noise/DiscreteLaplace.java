package org.dpstream.core.privacy.noise;

import java.util.Objects;

/**
 * The discrete Laplace distribution on the integers with rational scale t / s: P[X = x] proportional
 * to exp(-|x| s / t). Exact: Algorithm 2 of Canonne, Kamath and Steinke 2020 ("The discrete Gaussian
 * for differential privacy"), integer arithmetic only, bits from the caller's (keyed) source.
 *
 * <p>Hand-written: no maintained Java library on Maven Central samples it exactly from a caller's bit
 * source (Google's differentialprivacy artifact draws its noise from its own SecureRandom; Commons RNG
 * and Commons Statistics have no discrete Laplace).
 *
 * <p>Immutable; draws are a deterministic function of the bits passed in.
 */
public final class DiscreteLaplace {

  /**
   * Largest scale numerator t: X = U + t V overflows a long only if the geometric V exceeds 2^9, which
   * has probability below exp(-512).
   */
  public static final long MAX_SCALE_NUMERATOR = 1L << 53;

  private final long scaleNumerator;
  private final long scaleDenominator;

  private DiscreteLaplace(long scaleNumerator, long scaleDenominator) {
    this.scaleNumerator = scaleNumerator;
    this.scaleDenominator = scaleDenominator;
  }

  /**
   * Scale t / s.
   *
   * @throws IllegalArgumentException unless 1 &lt;= t &lt;= {@link #MAX_SCALE_NUMERATOR} and s &gt;= 1
   */
  public static DiscreteLaplace ofScale(long numerator, long denominator) {
    if (numerator < 1 || numerator > MAX_SCALE_NUMERATOR || denominator < 1) {
      throw new IllegalArgumentException("discrete Laplace scale t/s needs 1 <= t <= 2^53 and s >= 1, got "
          + numerator + "/" + denominator);
    }
    return new DiscreteLaplace(numerator, denominator);
  }

  public long scaleNumerator() {
    return scaleNumerator;
  }

  public long scaleDenominator() {
    return scaleDenominator;
  }

  /** One draw. */
  public long sample(RandomBits bits) {
    Objects.requireNonNull(bits, "bits");
    long t = scaleNumerator;
    while (true) {
      // X = U + t V with U uniform on {0..t-1} tilted by exp(-U/t) and V geometric: P[X = x] ~ exp(-x/t).
      long u = bits.uniformBelow(t);
      if (!ExactBernoulli.expMinus(bits, u, t)) {
        continue;
      }
      long v = 0;
      while (ExactBernoulli.expMinusOne(bits)) {
        v++;
      }
      long x = Math.addExact(u, Math.multiplyExact(t, v));
      long magnitude = scaleDenominator == 1 ? x : x / scaleDenominator;
      boolean negative = bits.nextBit();
      if (negative && magnitude == 0) {
        continue; // -0 would count zero twice
      }
      return negative ? -magnitude : magnitude;
    }
  }

  @Override
  public String toString() {
    return "discrete-laplace(scale=" + scaleNumerator + "/" + scaleDenominator + ")";
  }
}
