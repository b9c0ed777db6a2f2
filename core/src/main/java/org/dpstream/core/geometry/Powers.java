package org.dpstream.core.geometry;

/**
 * Powers for the norm and LMO loops. Small integer exponents are common (p = 1.5 has q = 3 and an LMO
 * exponent q - 1 = 2) and multiplication is an order of magnitude faster than {@link Math#pow}; the
 * result differs from it by a few ulps, which the clipping margins of the privacy calibration absorb.
 */
final class Powers {

  private Powers() {}

  /** base^exponent for base >= 0. */
  static double of(double base, double exponent) {
    if (exponent == 2) {
      return base * base;
    }
    if (exponent == 3) {
      return base * base * base;
    }
    if (exponent == 4) {
      double square = base * base;
      return square * square;
    }
    return Math.pow(base, exponent);
  }

  /** The p-th root of a non-negative value. */
  static double root(double value, double p) {
    if (p == 3) {
      return Math.cbrt(value);
    }
    return Math.pow(value, 1 / p);
  }
}
