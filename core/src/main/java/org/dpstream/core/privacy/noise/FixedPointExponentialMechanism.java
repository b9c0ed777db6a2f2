package org.dpstream.core.privacy.noise;

import java.math.BigInteger;
import java.util.Objects;

/**
 * The exponential mechanism over integer utilities in fixed point, with the same work and the same random
 * bits for every input: index v is drawn with probability proportional to a weight w~_v that is exp(-x_v) up
 * to a proven relative error, where x_v = min(lambda (u_max - u_v), {@value #GAP_CLAMP}) is the scaled gap to
 * the best utility, clamped at X = {@value #GAP_CLAMP}.
 *
 * <p>Why not rejection: a rejection sampler of exp(lambda u_v) (uniform proposal, accepted with probability
 * exp(-lambda (u_max - u_v))) is exact, but its number of rounds depends on the utilities, i.e. on the
 * data, a timing channel the accounting does not price. No exact sampler of irrational probabilities can
 * read a data-independent number of bits, so this one samples a slightly different mechanism, with
 * dyadic probabilities, and proves its privacy directly (docs/privacy-layer.md, "DP-POFW on the lattice"):
 *
 * <ol>
 *   <li><i>Clamped utilities.</i> x_v = lambda (u_max - u~_v) with u~_v = max(u_v, u_max - X / lambda); a
 *       maximum of two functions that each move by at most Delta between neighbours moves by at most Delta, so
 *       u~ has sensitivity Delta. Every weight is then at least e^-{@value #GAP_CLAMP}: no probability
 *       underflows to zero (which would be an infinite privacy loss), and the clamp adds at most e^-20 of mass
 *       per candidate.</li>
 *   <li><i>Weights.</i> x_v is computed exactly in integers (lambda is a dyadic double) and truncated to 56
 *       fractional bits; w~_v = 2^62 exp(-x_v) is the product of the table entries of its integer part and of
 *       its seven 8-bit fraction chunks, each a certified lower bound ({@link CertifiedExp}), every product
 *       rounded down. Hence (1 - 2^-31) exp(-x_v) &lt;= w~_v 2^-62 &lt;= (1 + 2^-55) exp(-x_v).</li>
 *   <li><i>Draw.</i> Two fresh 64-bit words R give t = floor(R W / 2^128), W = sum of the weights (128-bit),
 *       and v is the bucket with C_(v-1) &lt;= t &lt; C_v of the cumulative sums. Each t has probability
 *       within a relative W / 2^128 &lt;= 2^-35 of 1 / W, so P(v) = (w~_v / W)(1 +- 2^-35).</li>
 * </ol>
 *
 * For neighbours, log P(v) - log P'(v) = lambda (u~_v - u~'_v) + (terms that do not depend on v) + (error
 * terms), so its range over v is at most 2 lambda Delta + {@link #BOUNDED_RANGE_SLACK}: the draw is (2
 * lambda Delta + slack)-bounded-range. A caller that wants epsilon-bounded-range takes lambda = (epsilon -
 * slack) / (2 Delta), rounded down.
 *
 * <p>The work is the same for every input of a given length and lambda: one pass of fixed-point products
 * and 128-bit sums, two words of randomness, one full pass of comparisons (no early exit). Table lookups
 * are indexed by the data, so a cache-timing attacker on the same machine is outside what this claims
 * (as for every Java sampler). No floating-point value decides the outcome: lambda is read as the exact
 * rational a double is.
 */
public final class FixedPointExponentialMechanism {

  /** X: lambda times a gap is clamped at X, so every weight is at least e^-X. */
  public static final int GAP_CLAMP = 20;

  /**
   * An upper bound on the extra bounded-range parameter of the fixed-point draw: 2 log((1 + 2^-55) / (1 -
   * 2^-31)) + 2 log((1 + 2^-35) / (1 - 2^-35)) &lt; 1.06e-9 &lt; 2^-29, for up to 2^31 candidates.
   */
  public static final double BOUNDED_RANGE_SLACK = 0x1p-29;

  /** Fraction bits of x = lambda g. */
  static final int FRACTION_BITS = 56;
  /** The weights' scale: 1 is 2^62. */
  static final int WEIGHT_BITS = 62;
  static final long ONE = 1L << WEIGHT_BITS;
  private static final int CHUNK_BITS = 8;
  private static final int CHUNKS = FRACTION_BITS / CHUNK_BITS;

  /** WHOLE[n] = floor of a certified lower bound of 2^62 e^-n, n = 0..X. */
  static final long[] WHOLE;
  /** FRACTION[i][b] = floor of a certified lower bound of 2^62 exp(-b 2^-(8 (i + 1))). */
  static final long[][] FRACTION;

  static {
    int work = 128;
    BigInteger[] eMinusOne = CertifiedExp.expMinus(BigInteger.ONE, 0, work);
    WHOLE = new long[GAP_CLAMP + 1];
    BigInteger power = BigInteger.ONE.shiftLeft(work);
    for (int n = 0; n <= GAP_CLAMP; n++) {
      WHOLE[n] = power.shiftRight(work - WEIGHT_BITS).longValueExact();
      power = power.multiply(eMinusOne[0]).shiftRight(work); // rounded down: still a lower bound
    }
    FRACTION = new long[CHUNKS][1 << CHUNK_BITS];
    for (int i = 0; i < CHUNKS; i++) {
      for (int b = 0; b < 1 << CHUNK_BITS; b++) {
        BigInteger lower = CertifiedExp.expMinus(BigInteger.valueOf(b), CHUNK_BITS * (i + 1), work)[0];
        FRACTION[i][b] = lower.shiftRight(work - WEIGHT_BITS).longValueExact();
      }
    }
  }

  private FixedPointExponentialMechanism() {}

  /**
   * Builds the tables now, if they are not built yet (a static method's first call initialises the class):
   * about 0.1 s of big-integer arithmetic that a model does when it is created, not at its first draw, inside
   * the learning loop.
   */
  public static void prepareTables() {
    // Nothing else to do: the static initialiser has run by the time this body runs.
  }

  /**
   * One index of {@code utilities}, which the call overwrites with the weights.
   *
   * @param utilities u_v with |u_v| &lt; 2^61 (so every gap fits in a long), at most 2^31 of them
   * @param lambda &gt;= 0 (0: uniform)
   * @throws IllegalArgumentException if there are no utilities, or lambda is negative or not finite
   * @throws ArithmeticException if a gap u_max - u_v overflows a long
   */
  public static int sample(long[] utilities, double lambda, RandomBits bits) {
    Objects.requireNonNull(bits, "bits");
    weigh(utilities, lambda);
    long sumHigh = 0;
    long sumLow = 0;
    for (long w : utilities) {
      sumLow += w;
      sumHigh += Long.compareUnsigned(sumLow, w) < 0 ? 1 : 0;
    }
    long[] target = scaleDown(bits.nextWord(), bits.nextWord(), sumHigh, sumLow);
    long targetHigh = target[0];
    long targetLow = target[1];
    // v = the number of cumulative sums <= t: the bucket of t, over every candidate (no early exit).
    int chosen = 0;
    long cumulativeHigh = 0;
    long cumulativeLow = 0;
    for (long w : utilities) {
      cumulativeLow += w;
      cumulativeHigh += Long.compareUnsigned(cumulativeLow, w) < 0 ? 1 : 0;
      boolean atMost = cumulativeHigh < targetHigh
          || (cumulativeHigh == targetHigh && Long.compareUnsigned(cumulativeLow, targetLow) <= 0);
      chosen += atMost ? 1 : 0;
    }
    return chosen;
  }

  /** Replaces each utility by its weight w~_v (package-private: the tests compute the exact law from it). */
  static void weigh(long[] utilities, double lambda) {
    Objects.requireNonNull(utilities, "utilities");
    if (utilities.length == 0) {
      throw new IllegalArgumentException("the exponential mechanism needs at least one candidate");
    }
    if (!(lambda >= 0 && lambda <= Double.MAX_VALUE)) {
      throw new IllegalArgumentException("lambda = epsilon / (2 sensitivity) must be finite and >= 0, got " + lambda);
    }
    long max = Long.MIN_VALUE;
    for (long u : utilities) {
      max = Math.max(max, u);
    }
    // min(lambda, X) gives the same weights: with lambda >= X every gap >= 1 already has lambda g >= X. It keeps
    // lambda (G + 1) <= 2X below, so every product fits.
    double effective = Math.min(lambda, GAP_CLAMP);
    // effective = mantissa 2^exponent exactly (any finite double >= 0, subnormals included).
    int exponent = Math.max(Math.getExponent(effective), Double.MIN_EXPONENT) - 52;
    long mantissa = (long) Math.scalb(effective, -exponent);
    // min(lambda g, X) = min(lambda min(g, G + 1), X), since lambda (G + 1) > X.
    long gapBound = gapClamp(mantissa, exponent) + 1;
    long clamp = (long) GAP_CLAMP << FRACTION_BITS;
    int shift = -(exponent + FRACTION_BITS); // x 2^56 = mantissa g 2^-shift
    for (int v = 0; v < utilities.length; v++) {
      long gap = Math.min(Math.subtractExact(max, utilities[v]), gapBound);
      utilities[v] = weight(Math.min(fixedPoint(mantissa, gap, shift), clamp));
    }
  }

  /** G = floor(X / lambda), at most 2^62 (every gap is below that); 0 for lambda = 0 (then every x is 0: uniform). */
  static long gapClamp(long mantissa, int exponent) {
    if (mantissa == 0) {
      return 0;
    }
    BigInteger numerator = BigInteger.valueOf(GAP_CLAMP).shiftLeft(Math.max(0, -exponent));
    BigInteger denominator = BigInteger.valueOf(mantissa).shiftLeft(Math.max(0, exponent));
    return numerator.divide(denominator).min(BigInteger.ONE.shiftLeft(62)).longValueExact();
  }

  /** floor(mantissa gap 2^-shift): lambda gap in units of 2^-56, below 2X 2^56 since lambda &lt;= X and gap &lt;= G + 1. */
  static long fixedPoint(long mantissa, long gap, int shift) {
    long high = Math.multiplyHigh(mantissa, gap); // both >= 0
    long low = mantissa * gap;
    if (shift <= 0) {
      return low << -shift; // the result is below 2X 2^56 < 2^62, so nothing is lost
    }
    if (shift >= 64 + 63) {
      return 0; // mantissa gap < 2^115 <= 2^shift
    }
    return shift >= 64 ? high >>> (shift - 64) : (high << (64 - shift)) | (low >>> shift);
  }

  /** floor of 2^62 exp(-x 2^-56) from the tables, fraction chunks first (they keep the product above 2^62 / e). */
  static long weight(long fixedPointX) {
    long w = ONE;
    for (int i = 0; i < CHUNKS; i++) {
      int chunk = (int) (fixedPointX >>> (FRACTION_BITS - CHUNK_BITS * (i + 1))) & ((1 << CHUNK_BITS) - 1);
      w = multiply(w, FRACTION[i][chunk]);
    }
    return multiply(w, WHOLE[(int) (fixedPointX >>> FRACTION_BITS)]);
  }

  /** floor(a b / 2^62) for 0 &lt;= a, b &lt;= 2^62. */
  static long multiply(long a, long b) {
    return (Math.multiplyHigh(a, b) << (64 - WEIGHT_BITS)) | ((a * b) >>> WEIGHT_BITS);
  }

  /**
   * floor(r w / 2^128) for r = rHigh 2^64 + rLow and w = wHigh 2^64 + wLow (unsigned words, w &lt; 2^126), as
   * {high, low}: the schoolbook product's words above 2^128, with their carries.
   */
  static long[] scaleDown(long rHigh, long rLow, long wHigh, long wLow) {
    // r w = rHigh wHigh 2^128 + (rHigh wLow + rLow wHigh) 2^64 + rLow wLow.
    long middle = unsignedMultiplyHigh(rLow, wLow);
    long carries = 0;
    long term = rHigh * wLow;
    middle += term;
    carries += Long.compareUnsigned(middle, term) < 0 ? 1 : 0;
    term = rLow * wHigh;
    middle += term;
    carries += Long.compareUnsigned(middle, term) < 0 ? 1 : 0;
    long low = rHigh * wHigh;
    long high = unsignedMultiplyHigh(rHigh, wHigh);
    long part = unsignedMultiplyHigh(rHigh, wLow);
    low += part;
    high += Long.compareUnsigned(low, part) < 0 ? 1 : 0;
    part = unsignedMultiplyHigh(rLow, wHigh);
    low += part;
    high += Long.compareUnsigned(low, part) < 0 ? 1 : 0;
    low += carries;
    high += Long.compareUnsigned(low, carries) < 0 ? 1 : 0;
    return new long[] {high, low};
  }

  /** The high word of the unsigned 128-bit product (Math.unsignedMultiplyHigh arrives in Java 18). */
  static long unsignedMultiplyHigh(long a, long b) {
    return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
  }
}
