package org.dpstream.bench.common;

import java.math.BigDecimal;

/** Text forms of numbers in file names, CSV cells and tables. */
public final class Formats {

  private Formats() {}

  /**
   * A parameter (p, epsilon, delta) in its shortest plain form: {@code inf} for infinity, {@code 2}
   * not {@code 2.0}, {@code 0.0001} not {@code 1.0E-4}.
   */
  public static String parameter(double value) {
    if (value == Double.POSITIVE_INFINITY) {
      return "inf";
    }
    if (value == Double.NEGATIVE_INFINITY) {
      return "-inf";
    }
    if (Double.isNaN(value)) {
      return "nan";
    }
    String plain = BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    return plain.equals("-0") ? "0" : plain;
  }

  /** A measurement: {@link Double#toString}, which reads back to the same double. */
  public static String measurement(double value) {
    return Double.toString(value);
  }

  /** A measurement for people: four significant digits. */
  public static String brief(double value) {
    return String.format(java.util.Locale.ROOT, "%.4g", value);
  }
}
