package org.dpstream.core.erm.privacy;

/**
 * Directed rounding for the short floating-point expressions of the ERM calibrations: a computed value is
 * widened by a relative slack of 2^-40, which covers the accumulated error (below 2^-44 relative) of chains
 * of a few hundred correctly rounded or 1-ulp operations. Same convention as the package-private
 * {@code org.dpstream.core.privacy.accounting.Rounding}, restated here because that class is not visible
 * from this package.
 */
public final class SafeRounding {

  /** Relative widening applied to every rounded result. */
  public static final double RELATIVE_SLACK = 0x1p-40;

  private SafeRounding() {}

  /** An upper bound on the exact value of which {@code computed} is a floating-point approximation. */
  public static double up(double computed) {
    return Math.nextUp(computed + Math.abs(computed) * RELATIVE_SLACK);
  }

  /** A lower bound on the exact value of which {@code computed} is a floating-point approximation. */
  public static double down(double computed) {
    return Math.nextDown(computed - Math.abs(computed) * RELATIVE_SLACK);
  }

  static double requirePositiveFinite(double value, String name) {
    if (!(value > 0) || !Double.isFinite(value)) {
      throw new IllegalArgumentException(name + " must be positive and finite, got " + value);
    }
    return value;
  }
}
