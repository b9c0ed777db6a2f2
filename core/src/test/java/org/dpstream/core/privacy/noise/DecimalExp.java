package org.dpstream.core.privacy.noise;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/** exp(-x) to 90 digits by its Taylor series: a test oracle independent of {@link CertifiedExp}. */
final class DecimalExp {

  static final MathContext DIGITS = new MathContext(90, RoundingMode.HALF_EVEN);

  private DecimalExp() {}

  /** exp(-x) for 0 &lt;= x &lt;= 21, well below 1e-80 relative. */
  static BigDecimal expMinus(BigDecimal x) {
    BigDecimal sum = BigDecimal.ZERO;
    BigDecimal term = BigDecimal.ONE;
    BigDecimal limit = new BigDecimal("1e-85");
    for (int k = 1; term.abs().compareTo(limit) > 0 || k < 2 * x.intValue() + 2; k++) {
      sum = sum.add(term, DIGITS);
      term = term.multiply(x.negate(), DIGITS).divide(BigDecimal.valueOf(k), DIGITS);
    }
    return sum;
  }
}
