package org.dpstream.core.privacy.factorization;

import java.util.Arrays;
import org.dpstream.core.privacy.accounting.Rounding;

/**
 * A buffered linear Toeplitz (BLT) strategy matrix C: lower-triangular Toeplitz with c_0 = 1 and
 * c_k = sum_i omega_i theta_i^(k-1) for k &gt;= 1, i.e. the generating function c(x) = 1 + sum_i omega_i x /
 * (1 - theta_i x) (Dvijotham, McMahan, Pillutla, Steinke and Thakurta 2024). Multiplying by C or by C^{-1}
 * takes one buffer per theta_i: with s_i = sum_{j &lt; t} theta_i^(t-1-j) x_j, (C x)_t = x_t + sum_i omega_i s_i,
 * and w = C^{-1} z is w_t = z_t - sum_i omega_i s_i(w), s_i &lt;- theta_i s_i + w_t.
 *
 * <p>Admissible parameters (checked): 0 &lt; theta_i &lt; 1 distinct, omega_i &gt; 0, and the Pillutla score
 * sum_i omega_i / theta_i &lt; 1. Then every c_k &gt; 0 (so upward rounding bounds the column norms rigorously),
 * and C^{-1} is itself a BLT with real decays theta^_j in (0, 1) and scales omega^_j &lt; 0: in u = 1/x, c =
 * f(u) = 1 + sum_i omega_i / (u - theta_i) is decreasing between its poles, with f(0) = 1 - score &gt; 0 and
 * f &gt; 1 above the largest theta, so f has one root in (0, theta_1) and one between consecutive thetas,
 * m real roots theta^_j in all, and 1 / f = 1 + sum_j omega^_j / (u - theta^_j) with omega^_j = 1 / f'(theta^_j)
 * &lt; 0 (partial fractions).
 *
 * <p>Errors: the mechanism releases A x + B z with B = A C^{-1}, whose coefficients are b_k = sum_{l &lt;= k}
 * of C^{-1}'s, b_k = beta - sum_j gamma_j theta^_j^k with gamma_j = omega^_j / (1 - theta^_j) &lt; 0 and beta =
 * 1 / c(1). The release at t has per-coordinate noise variance sigma^2 sum_{k &lt; t} b_k^2, largest at t = n;
 * the sensitivity is the first column's norm, sum_{k &lt; n} c_k^2. Both have closed forms in geometric sums
 * of positive terms (no cancellation), used by the optimiser and the predictions; the privacy calibration
 * uses {@link #squaredColumnNormUpperBounds}, rounded up rigorously.
 *
 * <p>All arithmetic is IEEE double with {@link StrictMath}, so the same parameters give the same numbers on
 * every JVM. Immutable.
 */
public final class BltStrategy {

  /** Smallest 1 - theta admitted: 1 - theta must be exact and the geometric sums finite. */
  static final double MIN_GAP_TO_ONE = 0x1p-50;

  private final double[] decays; // theta, ascending
  private final double[] scales; // omega, matching
  private final double[] gaps; // 1 - theta, to nearest (exact for theta >= 1/2, Sterbenz); predictions only
  private final double[] inverseGaps; // 1 - theta^, descending with the matching theta^ ascending
  private final double[] inverseScales; // omega^ < 0
  private final double limit; // beta = 1 / c(1)

  private BltStrategy(double[] decays, double[] scales) {
    this.decays = decays;
    this.scales = scales;
    this.gaps = new double[decays.length];
    for (int i = 0; i < decays.length; i++) {
      gaps[i] = 1 - decays[i];
    }
    this.inverseGaps = inverseGaps(gaps, scales);
    this.inverseScales = new double[decays.length];
    for (int j = 0; j < decays.length; j++) {
      double slope = 0;
      for (int i = 0; i < decays.length; i++) {
        double difference = gaps[i] - inverseGaps[j];
        slope += scales[i] / (difference * difference);
      }
      inverseScales[j] = -1 / slope;
    }
    double atOne = 1;
    for (int i = 0; i < decays.length; i++) {
      atOne += scales[i] / gaps[i];
    }
    this.limit = 1 / atOne;
  }

  /**
   * @param decays theta_i, distinct, in (0, 1 - 2^-50]
   * @param scales omega_i &gt; 0, with sum_i omega_i / theta_i &lt; 1
   */
  public static BltStrategy of(double[] decays, double[] scales) {
    if (decays.length == 0 || decays.length != scales.length) {
      throw new IllegalArgumentException("need as many decays as scales, at least one: " + decays.length + ", "
          + scales.length);
    }
    Integer[] order = new Integer[decays.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Double.compare(decays[a], decays[b]));
    double[] sortedDecays = new double[decays.length];
    double[] sortedScales = new double[decays.length];
    double score = 0;
    for (int i = 0; i < order.length; i++) {
      double theta = decays[order[i]];
      double omega = scales[order[i]];
      if (!(theta > 0 && 1 - theta >= MIN_GAP_TO_ONE) || (i > 0 && theta == sortedDecays[i - 1])) {
        throw new IllegalArgumentException("BLT decays must be distinct and in (0, 1 - 2^-50], got "
            + Arrays.toString(decays));
      }
      if (!(omega > 0) || !Double.isFinite(omega)) {
        throw new IllegalArgumentException("BLT scales must be positive and finite, got " + Arrays.toString(scales));
      }
      sortedDecays[i] = theta;
      sortedScales[i] = omega;
      score += omega / theta;
    }
    if (!(score < 1)) {
      throw new IllegalArgumentException("BLT needs sum omega_i / theta_i < 1 (real positive inverse decays), got "
          + score);
    }
    return new BltStrategy(sortedDecays, sortedScales);
  }

  /** The m roots of h(g) = 1 + sum_i omega_i / (gap_i - g), one per interval, by bisection to the last bit. */
  private static double[] inverseGaps(double[] gaps, double[] scales) {
    int m = gaps.length;
    double[] roots = new double[m];
    // gaps descend (decays ascend); h rises from -inf to +inf on (gap_{j}, gap_{j-1}), and on (gap_0, 1) to
    // h(1) = 1 - score > 0.
    for (int j = 0; j < m; j++) {
      double low = gaps[j];
      double high = j == 0 ? 1.0 : gaps[j - 1];
      while (true) {
        double middle = low + (high - low) / 2;
        if (middle <= low || middle >= high) {
          roots[j] = middle;
          break;
        }
        double h = 1;
        for (int i = 0; i < m; i++) {
          h += scales[i] / (gaps[i] - middle);
        }
        if (h < 0) {
          low = middle;
        } else {
          high = middle;
        }
      }
    }
    return roots;
  }

  public int buffers() {
    return decays.length;
  }

  /** theta_i, ascending (a copy). */
  public double[] decays() {
    return decays.clone();
  }

  /** omega_i, in the order of {@link #decays()} (a copy). */
  public double[] scales() {
    return scales.clone();
  }

  /** theta^_j of C^{-1}, ascending (a copy). */
  public double[] inverseDecays() {
    double[] inverse = new double[inverseGaps.length];
    for (int j = 0; j < inverse.length; j++) {
      inverse[j] = 1 - inverseGaps[j];
    }
    return inverse;
  }

  /** omega^_j of C^{-1}, in the order of {@link #inverseDecays()} (a copy). */
  public double[] inverseScales() {
    return inverseScales.clone();
  }

  /** c_0 .. c_{count-1} of C, to nearest (for tests and display). */
  public double[] coefficients(int count) {
    double[] c = new double[count];
    double[] powers = new double[decays.length];
    Arrays.fill(powers, 1.0);
    for (int k = 0; k < count; k++) {
      if (k == 0) {
        c[k] = 1;
        continue;
      }
      double sum = 0;
      for (int i = 0; i < decays.length; i++) {
        sum += scales[i] * powers[i];
        powers[i] *= decays[i];
      }
      c[k] = sum;
    }
    return c;
  }

  /** F(t) = sum_{k &lt; t} c_k^2, the squared norm of C's first column cut to t rows, to nearest (closed form). */
  public double squaredColumnNorm(long rows) {
    requirePositive(rows);
    return squaredColumnNorm(gaps, scales, rows);
  }

  /** E(t) = sum_{k &lt; t} b_k^2, the squared norm of row t of B = A C^{-1}, to nearest (closed form). */
  public double squaredErrorRowNorm(long rows) {
    requirePositive(rows);
    return squaredErrorRowNorm(inverseGaps, inverseScales, limit, rows);
  }

  /**
   * The squared norm of row {@code start + length} minus row {@code start} of B = A C^{-1}: the per-coordinate
   * variance, in units of sigma^2, of the noise of the sum of the releases' increments over those {@code length}
   * steps. With b_k = beta - sum_j gamma_j theta^_j^k it is E(length) + sum_{m &lt; start} (b_(length+m) - b_m)^2, and
   * b_(length+m) - b_m = sum_j a_j theta^_j^m with a_j = gamma_j (1 - theta^_j^length), all of one sign: a closed form
   * of positive terms, to nearest (predictions only).
   */
  public double squaredErrorIncrementNorm(long start, long length) {
    requirePositive(length);
    if (start < 0) {
      throw new IllegalArgumentException("start must be at least 0, got " + start);
    }
    double sum = squaredErrorRowNorm(inverseGaps, inverseScales, limit, length);
    int m = inverseGaps.length;
    for (int j = 0; j < m && start > 0; j++) {
      double aJ = inverseScales[j] / inverseGaps[j] * -StrictMath.expm1(length * StrictMath.log1p(-inverseGaps[j]));
      for (int l = 0; l < m; l++) {
        double aL = inverseScales[l] / inverseGaps[l] * -StrictMath.expm1(length * StrictMath.log1p(-inverseGaps[l]));
        sum += aJ * aL * geometricSum(productGap(inverseGaps[j], inverseGaps[l]), start);
      }
    }
    return sum;
  }

  /**
   * The max loss of the factorization over a horizon n: F(n) E(n), the worst per-coordinate release variance
   * in units of (S^2 / (2 rho)) (for a Toeplitz B the worst row is the last).
   */
  public double maxLoss(long horizon) {
    return squaredColumnNorm(horizon) * squaredErrorRowNorm(horizon);
  }

  static double squaredColumnNorm(double[] gaps, double[] scales, long rows) {
    double sum = 1;
    for (int a = 0; a < gaps.length; a++) {
      for (int b = 0; b < gaps.length; b++) {
        sum += scales[a] * scales[b] * geometricSum(productGap(gaps[a], gaps[b]), rows - 1);
      }
    }
    return sum;
  }

  static double squaredErrorRowNorm(double[] inverseGaps, double[] inverseScales, double limit, long rows) {
    // b_k = beta - sum_j gamma_j theta^_j^k, gamma_j < 0: every term of the expanded square is positive.
    int m = inverseGaps.length;
    double sum = rows * limit * limit;
    for (int j = 0; j < m; j++) {
      double gammaJ = inverseScales[j] / inverseGaps[j];
      sum -= 2 * limit * gammaJ * geometricSum(inverseGaps[j], rows);
      for (int l = 0; l < m; l++) {
        double gammaL = inverseScales[l] / inverseGaps[l];
        sum += gammaJ * gammaL * geometricSum(productGap(inverseGaps[j], inverseGaps[l]), rows);
      }
    }
    return sum;
  }

  /** 1 - (1 - a)(1 - b), without cancellation. */
  private static double productGap(double a, double b) {
    return a + b - a * b;
  }

  /** sum_{k &lt; count} (1 - gap)^k = (1 - (1 - gap)^count) / gap. */
  static double geometricSum(double gap, long count) {
    if (count <= 0) {
      return 0;
    }
    return -StrictMath.expm1(count * StrictMath.log1p(-gap)) / gap;
  }

  /**
   * Rigorous upper bounds on F(t) = 1 + sum_{a,b} omega_a omega_b sum_{k &lt; t-1} (theta_a theta_b)^k for the
   * exact matrix of these double parameters: every operation is rounded up ({@link Rounding}) or, for
   * what is subtracted, down; all terms are positive, so the bound holds for any t.
   */
  public double[] squaredColumnNormUpperBounds(long[] steps) {
    double[] bounds = new double[steps.length];
    for (int s = 0; s < steps.length; s++) {
      requirePositive(steps[s]);
      long terms = steps[s] - 1;
      double sum = 1; // c_0^2, exact
      for (int a = 0; terms > 0 && a < decays.length; a++) {
        for (int b = 0; b < decays.length; b++) {
          double weight = Rounding.productUp(scales[a], scales[b]);
          sum = Rounding.sumUp(sum, Rounding.productUp(weight, geometricSumUpperBound(a, b, terms)));
        }
      }
      bounds[s] = sum;
    }
    return bounds;
  }

  /** An upper bound on sum_{k &lt; count} r^k for the exact r = theta_a theta_b: min(count, (1 - r^count) / (1 - r)). */
  private double geometricSumUpperBound(int a, int b, long count) {
    if (count == 0) {
      return 0;
    }
    double ratio = Rounding.productUp(decays[a], decays[b]); // >= r, and the sum grows with r
    double countBound = Rounding.sumUp(count, 0); // count as a double, rounded up
    double oneMinusRatio = Math.nextDown(1 - ratio);
    if (!(oneMinusRatio > 0)) {
      return countBound;
    }
    double numerator = Math.nextUp(1 - powerLowerBound(ratio, count));
    return Math.min(countBound, Rounding.quotientUp(numerator, oneMinusRatio));
  }

  /** A lower bound on r^count for r in [0, 1]: square-and-multiply, each product rounded down. */
  static double powerLowerBound(double ratio, long count) {
    double result = 1;
    double square = ratio;
    for (long e = count; e > 0; e >>>= 1) {
      if ((e & 1) != 0) {
        result = Math.max(0, Math.nextDown(result * square));
      }
      square = Math.max(0, Math.nextDown(square * square));
    }
    return result;
  }

  private static void requirePositive(long rows) {
    if (rows < 1) {
      throw new IllegalArgumentException("rows must be at least 1, got " + rows);
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof BltStrategy that && Arrays.equals(decays, that.decays) && Arrays.equals(scales, that.scales);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(decays) + Arrays.hashCode(scales);
  }

  @Override
  public String toString() {
    return "BltStrategy[theta=" + Arrays.toString(decays) + ", omega=" + Arrays.toString(scales) + "]";
  }
}
