package org.dpstream.core.privacy.noise;

import java.math.BigInteger;

/**
 * Certified bounds on the cumulative distribution of the cells of a discrete Gaussian, in integer
 * arithmetic with directed rounding: cell t &gt;= 0 has weight w_t = exp(-(t / 2^B)^2 / 2) = q^(t^2),
 * q = exp(-2^-(2B + 1)), and F_t = (w_0 + ... + w_t) / Z with Z the sum over all t &gt;= 0. The bounds are
 * proven, not approximated: q is bracketed by two partial sums of its alternating Taylor series, every
 * product is rounded down on the lower side and up on the upper side, and the tail of Z beyond the
 * computed cells is bounded by a geometric series. {@link #bounds} gives [lo, hi] with lo &lt;= 2^p F_t
 * &lt;= hi at any precision p, so a comparison of a uniform with F_t can always be settled exactly by
 * asking for more digits.
 */
final class GaussianCellCdf {

  /** B: cells per sigma are 2^B. */
  static final int CELL_BITS = 8;
  /** Cells covered: 7 sigma (the rest, mass about 2.6e-12, is the tail). */
  static final int CELLS = 7 << CELL_BITS;

  /** Q = 2B + 1: q = exp(-2^-Q). */
  private static final int Q_SHIFT = 2 * CELL_BITS + 1;

  private GaussianCellCdf() {}

  /**
   * Bounds on 2^precision F_t for t in [0, {@link #CELLS}): row 0 the lower bounds (rounded down), row 1
   * the upper bounds (rounded up).
   */
  static BigInteger[][] bounds(int precision) {
    if (precision < 1) {
      throw new IllegalArgumentException("precision must be positive: " + precision);
    }
    // Working precision: the products lose a relative 2^-work each, about N^2 of them in the last weight.
    int work = precision + 64;
    BigInteger one = BigInteger.ONE.shiftLeft(work);
    BigInteger[] q = expMinusPowerOfTwo(Q_SHIFT, work);
    BigInteger qSquaredLow = q[0].multiply(q[0]).shiftRight(work);
    BigInteger qSquaredHigh = ceilShift(q[1].multiply(q[1]), work);
    BigInteger[] prefixLow = new BigInteger[CELLS];
    BigInteger[] prefixHigh = new BigInteger[CELLS];
    // Z is summed over N cells, N large enough that the tail bound beyond it is below 2^-(precision + 16)
    // of Z (the weights fall as exp(-N^2 / 2^(Q))); any N gives valid bounds, a larger one tighter ones.
    int summed = Math.max(CELLS, (int) Math.ceil(Math.sqrt((precision + 80) * Math.scalb(Math.log(2), Q_SHIFT))));
    if (2L * summed + 1 > 1L << Q_SHIFT) {
      throw new IllegalStateException("precision " + precision + " is beyond the cell table's tail bound");
    }
    // w_0 = 1, v_0 = q; w_(t+1) = w_t v_t, v_(t+1) = v_t q^2 (v_t = q^(2t + 1)).
    BigInteger weightLow = one;
    BigInteger weightHigh = one;
    BigInteger ratioLow = q[0];
    BigInteger ratioHigh = q[1];
    BigInteger sumLow = BigInteger.ZERO;
    BigInteger sumHigh = BigInteger.ZERO;
    for (int t = 0; t < summed; t++) {
      sumLow = sumLow.add(weightLow);
      sumHigh = sumHigh.add(weightHigh);
      if (t < CELLS) {
        prefixLow[t] = sumLow;
        prefixHigh[t] = sumHigh;
      }
      weightLow = weightLow.multiply(ratioLow).shiftRight(work);
      weightHigh = ceilShift(weightHigh.multiply(ratioHigh), work);
      ratioLow = ratioLow.multiply(qSquaredLow).shiftRight(work);
      ratioHigh = ceilShift(ratioHigh.multiply(qSquaredHigh), work);
    }
    // Tail: for t >= N, w_(t+1) / w_t = q^(2t + 1) <= r = exp(-a), a = (2N + 1) 2^-Q <= 1, so
    // sum_(t >= N) w_t <= w_N / (1 - r) <= w_N 2 / a (1 - e^-a >= a / 2 for a <= 1) = w_N 2^(Q+1) / (2N + 1).
    BigInteger tailFactor = BigInteger.ONE.shiftLeft(Q_SHIFT + 1)
        .add(BigInteger.valueOf(2L * summed)) // ceil(2^(Q+1) / (2N + 1)) = floor((2^(Q+1) + 2N) / (2N + 1))
        .divide(BigInteger.valueOf(2L * summed + 1));
    BigInteger totalLow = sumLow;
    BigInteger totalHigh = sumHigh.add(weightHigh.multiply(tailFactor));
    BigInteger[][] bounds = new BigInteger[2][CELLS];
    for (int t = 0; t < CELLS; t++) {
      bounds[0][t] = prefixLow[t].shiftLeft(precision).divide(totalHigh);
      bounds[1][t] = CertifiedExp.ceilDivide(prefixHigh[t].shiftLeft(precision), totalLow);
    }
    return bounds;
  }

  /** exp(-2^-shift) as [lo, hi] in units of 2^-work ({@link CertifiedExp}, x = 2^-shift &lt; 1). */
  static BigInteger[] expMinusPowerOfTwo(int shift, int work) {
    // Terms x^k / k! < 2^-(work + 1) from k = K on: K shift > work + 1 suffices.
    return CertifiedExp.expMinus(BigInteger.ONE, shift, work, (work + 1) / shift + 2);
  }

  private static BigInteger ceilShift(BigInteger value, int bits) {
    return value.add(BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE)).shiftRight(bits);
  }
}
