package org.dpstream.core.privacy.accounting;

/**
 * Directed rounding for every privacy computation of the project (ARCHITECTURE.md 4.7: accounting rounds
 * so that rounding can only strengthen the guarantee). Java has no directed rounding modes; two conventions
 * replace them.
 *
 * <p><b>Short chains: a relative slack</b> ({@link #up}, {@link #down}, {@link #upDifference}). A computed
 * value is widened by a relative slack of 2^-40 and then by one ulp. Every expression rounded this way is a
 * chain of fewer than a few hundred operations, each accurate to 1 ulp (2^-52 relative: {@code +,*,/,sqrt}
 * are correctly rounded and {@code Math.log, log1p, exp, expm1} are specified within 1 ulp), so the
 * accumulated relative error stays below 2^-44 and the slack covers it with room to spare. The slack is far
 * below anything that matters for privacy or utility (1e-12 relative).
 *
 * <p><b>Long chains: one operation at a time</b> ({@link #sumUp}, {@link #productUp}, {@link #quotientUp},
 * {@link #sqrtUp}, for non-negative operands). Java rounds every {@code +, *, /, sqrt} to the nearest double,
 * so the exact result lies strictly between the neighbours of the computed one: if it lay above
 * {@code nextUp(computed)}, that neighbour would have been nearer. Hence {@code nextUp} of each computed
 * result bounds the exact result from above, and a chain of such operations on upper bounds of non-negative
 * inputs (all monotone) yields an upper bound of the exact chain, however long it is. This is what the
 * column-norm sums over up to millions of terms need; a fixed relative slack would not cover an error that
 * grows with the number of terms. {@link #tightSumUp} is the exact variant of {@link #sumUp}: it moves only
 * when the nearest sum lies below the exact one.
 */
public final class Rounding {

  /** Relative widening applied by {@link #up}, {@link #down} and {@link #upDifference}. */
  public static final double RELATIVE_SLACK = 0x1p-40;

  private Rounding() {}

  /** An upper bound on the exact value of which {@code computed} is a short chain's approximation. */
  public static double up(double computed) {
    return Math.nextUp(computed + Math.abs(computed) * RELATIVE_SLACK);
  }

  /** A lower bound on the exact value of which {@code computed} is a short chain's approximation. */
  public static double down(double computed) {
    return Math.nextDown(computed - Math.abs(computed) * RELATIVE_SLACK);
  }

  /**
   * An upper bound on {@code positive - negative} when both parts are non-negative approximations. The slack
   * is taken relative to {@code positive + negative}, because cancellation keeps the absolute error of the
   * parts, not of their difference.
   */
  public static double upDifference(double positive, double negative) {
    return Math.nextUp(positive - negative + (positive + negative) * RELATIVE_SLACK);
  }

  /** An upper bound on the exact {@code a + b}, for non-negative operands. */
  public static double sumUp(double a, double b) {
    return Math.nextUp(a + b);
  }

  /**
   * The least double at or above the exact {@code a + b}: the rounding error of the floating-point sum is
   * recovered exactly (Knuth's TwoSum), so an exact sum such as 2 x (delta / 2) stays exactly delta and an
   * inexact one rounded down moves one ulp up. For finite operands.
   */
  public static double tightSumUp(double a, double b) {
    double sum = a + b;
    double bVirtual = sum - a;
    double error = (a - (sum - bVirtual)) + (b - bVirtual);
    return error > 0 ? Math.nextUp(sum) : sum;
  }

  /** An upper bound on the exact {@code a * b}, for non-negative operands. */
  public static double productUp(double a, double b) {
    return Math.nextUp(a * b);
  }

  /** An upper bound on the exact {@code dividend / divisor}, for a non-negative dividend and positive divisor. */
  public static double quotientUp(double dividend, double divisor) {
    return Math.nextUp(dividend / divisor);
  }

  /** An upper bound on the exact square root of a non-negative {@code a}. */
  public static double sqrtUp(double a) {
    return Math.nextUp(Math.sqrt(a));
  }
}
