package org.dpstream.core.privacy.tree;

/**
 * A grid of spacing gamma = 2^k on which the tree mechanism keeps its sums as {@code long} units.
 *
 * <p>Why a lattice: integer sums are exact and independent of the order of addition, so the O(d)
 * mechanism, which adds and removes node noise as nodes merge, agrees bit for bit with the plain
 * Algorithm 5 that sums nodes, and neither drifts over long horizons. Continuous noise is rounded to
 * the lattice with a shift-invariant rule, floor(z / gamma + 1/2), so that a lattice input plus
 * rounded noise equals the rounding of input plus noise: post-processing of the continuous
 * mechanism. Rounding also hides the low-order bits of floating-point noise samples that Mironov's
 * attack reads (a mitigation, not a proof). Rounding an input moves each coordinate by at most
 * gamma / 2; {@link #roundingSlack} gives that in any lq norm, for the sensitivity.
 */
public final class Lattice {

  /** Units beyond 2^52 are no longer exactly representable next to the half-unit rounding offset. */
  private static final double MAX_UNITS = 0x1p52;

  private final double granularity;

  private Lattice(double granularity) {
    this.granularity = granularity;
  }

  /**
   * A lattice of spacing 2^exponent.
   *
   * @param exponent in [-1000, 1000]
   */
  public static Lattice ofPowerOfTwo(int exponent) {
    if (exponent < -1000 || exponent > 1000) {
      throw new IllegalArgumentException("lattice exponent out of range: " + exponent);
    }
    return new Lattice(Math.scalb(1.0, exponent));
  }

  /**
   * The lattice fine enough that a value of magnitude {@code scale} keeps {@code bitsOfPrecision}
   * bits, e.g. {@code forScale(clipNorm, 40)}.
   */
  public static Lattice forScale(double scale, int bitsOfPrecision) {
    if (!(scale > 0) || Double.isInfinite(scale)) {
      throw new IllegalArgumentException("scale must be positive and finite: " + scale);
    }
    return ofPowerOfTwo(Math.getExponent(scale) - bitsOfPrecision);
  }

  public double granularity() {
    return granularity;
  }

  /** The binary exponent k of gamma = 2^k. */
  public int exponent() {
    return Math.getExponent(granularity);
  }

  /**
   * Rounds to the nearest lattice point, ties upward.
   *
   * @throws ArithmeticException if {@code value} is not finite or too large for this lattice
   */
  public long toUnits(double value) {
    double scaled = value / granularity; // exact: gamma is a power of two
    if (!(Math.abs(scaled) < MAX_UNITS)) {
      throw new ArithmeticException(
          "value " + value + " is not finite or exceeds 2^52 units of the lattice 2^" + exponent());
    }
    return (long) Math.floor(scaled + 0.5);
  }

  /** {@link #toUnits(double)} for each coordinate. */
  public void toUnits(double[] values, long[] units) {
    checkSameLength(values.length, units.length);
    for (int i = 0; i < values.length; i++) {
      units[i] = toUnits(values[i]);
    }
  }

  public double toValue(long units) {
    return units * granularity;
  }

  /** {@link #toValue(long)} for each coordinate. */
  public void toValues(long[] units, double[] values) {
    checkSameLength(units.length, values.length);
    for (int i = 0; i < units.length; i++) {
      values[i] = toValue(units[i]);
    }
  }

  /**
   * The largest lq norm of the rounding error of a d-dimensional vector: (gamma / 2) d^(1/q), rounded
   * up. An input clipped to norm C has norm at most C + roundingSlack after rounding.
   *
   * @param q in [1, inf]
   */
  public double roundingSlack(int dimension, double q) {
    if (dimension <= 0 || !(q >= 1)) {
      throw new IllegalArgumentException("need dimension > 0 and q >= 1: d=" + dimension + ", q=" + q);
    }
    double half = granularity / 2;
    if (Double.isInfinite(q)) {
      return half;
    }
    return Math.nextUp(half * Math.nextUp(Math.pow(dimension, 1.0 / q)));
  }

  private static void checkSameLength(int a, int b) {
    if (a != b) {
      throw new IllegalArgumentException("length mismatch: " + a + " vs " + b);
    }
  }

  @Override
  public String toString() {
    return "Lattice[2^" + exponent() + "]";
  }
}
