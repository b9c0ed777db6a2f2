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
}
