package org.dpstream.core.privacy.accounting;

/**
 * Directed rounding for the short floating-point expressions of this package.
 *
 * <p>Java has no directed rounding modes, so we widen a computed value by a relative slack of 2^-40. Every
 * expression here is a chain of fewer than a few hundred operations, each accurate to 1 ulp (2^-52
 * relative: {@code +,*,/,sqrt} are correctly rounded and {@code Math.log, log1p, exp, expm1} are specified
 * within 1 ulp), so the accumulated relative error stays below 2^-44 and the slack covers it with room to
 * spare. The slack is far below anything that matters for privacy or utility (1e-12 relative).
 */
final class Rounding {

  /** Relative widening applied to every rounded result. */
  static final double RELATIVE_SLACK = 0x1p-40;

  private Rounding() {}

  /** An upper bound on the exact value of which {@code computed} is a floating-point approximation. */
  static double up(double computed) {
    return Math.nextUp(computed + Math.abs(computed) * RELATIVE_SLACK);
  }

  /** A lower bound on the exact value of which {@code computed} is a floating-point approximation. */
  static double down(double computed) {
    return Math.nextDown(computed - Math.abs(computed) * RELATIVE_SLACK);
  }

  /**
   * An upper bound on {@code positive - negative} when both parts are non-negative approximations. The slack
   * is taken relative to {@code positive + negative}, because cancellation keeps the absolute error of the
   * parts, not of their difference.
   */
  static double upDifference(double positive, double negative) {
    return Math.nextUp(positive - negative + (positive + negative) * RELATIVE_SLACK);
  }
}
