package org.dpstream.demo;

import java.math.BigDecimal;

/** Numbers as a person writes them: 1 rather than 1.0, 1e-5 as 0.00001. */
final class PlainNumbers {

  private PlainNumbers() {}

  static String of(double value) {
    if (!Double.isFinite(value)) {
      return Double.toString(value);
    }
    return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
  }

  /** A one-digit power of ten times a digit as {@code 1e-5}; other numbers as {@link #of}. */
  static String scientific(double value) {
    if (!Double.isFinite(value) || value == 0) {
      return of(value);
    }
    BigDecimal exact = BigDecimal.valueOf(value).stripTrailingZeros();
    return exact.unscaledValue().abs().compareTo(java.math.BigInteger.TEN) < 0 && exact.scale() > 3
        ? exact.unscaledValue() + "e-" + exact.scale() : of(value);
  }
}
