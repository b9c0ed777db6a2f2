package org.dpstream.core.privacy.factorization;

import org.dpstream.core.privacy.accounting.Rounding;

/**
 * The square root C = A^{1/2} of the prefix-sum matrix A (ones on and below the diagonal, any size n).
 *
 * <p>C is lower-triangular Toeplitz: C[i][j] = r_{i-j} for i &gt;= j, with r_k = binom(2k, k) / 4^k, the
 * coefficients of (1 - x)^{-1/2}. Since ((1 - x)^{-1/2})^2 = (1 - x)^{-1} = sum_k x^k, the generating function
 * of A's Toeplitz entries, C C = A for every n (Fichtenberger, Henzinger and Upadhyay 2023). The largest column
 * norm of the n x n matrix is that of the first column, ||C e_1||^2 = sum_{k &lt; n} r_k^2, which grows like
 * ln(n) / pi (r_k^2 ~ 1 / (pi k)).
 *
 * <p>The coefficients are computed by the recurrence r_0 = 1, r_k = r_{k-1} (2k - 1) / (2k), which is stable:
 * each step multiplies by a factor in (0, 1) with two correctly rounded operations, so r_k has a relative
 * error below k 2^-52 and no binomial coefficient or power of 4 is ever formed (they overflow from k = 515).
 */
public final class PrefixSumSquareRoot {

  private PrefixSumSquareRoot() {}

  /**
   * r_k from r_{k-1}: {@code previous * (2k - 1) / (2k)}, evaluated in that order. The noise of the release and
   * every test use this one expression, so the weights are the same doubles wherever they are computed.
   *
   * @param k at least 1 and at most 2^51 (so that 2k is exact)
   */
  public static double coefficientAfter(double previous, long k) {
    return previous * (2 * k - 1) / (2 * k);
  }

  /** An upper bound on the exact r_k, given an upper bound on the exact r_{k-1} (see {@link Rounding}). */
  static double coefficientUpperBoundAfter(double previousUpperBound, long k) {
    return Rounding.quotientUp(Rounding.productUp(previousUpperBound, 2 * k - 1), 2 * k);
  }

  /** r_0 .. r_{count-1}. */
  public static double[] coefficients(int count) {
    if (count < 0) {
      throw new IllegalArgumentException("count must be non-negative, got " + count);
    }
    double[] r = new double[count];
    for (int k = 0; k < count; k++) {
      r[k] = k == 0 ? 1.0 : coefficientAfter(r[k - 1], k);
    }
    return r;
  }

  /**
   * sum_{k &lt; rows} r_k^2, to nearest (not rounded up; for utility, not for accounting): the squared norm of
   * a column of C truncated to {@code rows} rows, and so the per-coordinate noise variance, in units of
   * sigma^2, of the release after {@code rows} steps.
   */
  public static double squaredColumnNorm(long rows) {
    if (rows < 0) {
      throw new IllegalArgumentException("rows must be non-negative, got " + rows);
    }
    double coefficient = 1.0;
    double sum = 0;
    for (long k = 0; k < rows; k++) {
      if (k > 0) {
        coefficient = coefficientAfter(coefficient, k);
      }
      sum += coefficient * coefficient;
    }
    return sum;
  }
}
