package org.dpstream.core.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import org.junit.jupiter.api.Test;

/** Exact values of the project's one rounding utility, worked by hand in binary. */
class RoundingTest {

  @Test
  void relativeSlackIsTwoToTheMinusForty() {
    assertEquals(0x1p-40, Rounding.RELATIVE_SLACK);
  }

  @Test
  void upWidensByTheSlackThenOneUlp() {
    // 1 + 2^-40 is a double; the ulp above 1 is 2^-52.
    assertEquals(1 + 0x1p-40 + 0x1p-52, Rounding.up(1.0));
    // 3 = 1.5 * 2^1: slack 3 * 2^-40, ulp 2^-51.
    assertEquals(3 + 3 * 0x1p-40 + 0x1p-51, Rounding.up(3.0));
    // negative values move towards zero: |-1| * slack, then the ulp below 1 in magnitude is 2^-53.
    assertEquals(-1 + 0x1p-40 + 0x1p-53, Rounding.up(-1.0));
    assertEquals(Double.MIN_VALUE, Rounding.up(0.0));
  }

  @Test
  void downNarrowsByTheSlackThenOneUlp() {
    // 1 - 2^-40 lies in [1/2, 1), where the ulp is 2^-53.
    assertEquals(1 - 0x1p-40 - 0x1p-53, Rounding.down(1.0));
    assertEquals(3 - 3 * 0x1p-40 - 0x1p-51, Rounding.down(3.0));
    assertEquals(-Double.MIN_VALUE, Rounding.down(0.0));
  }

  @Test
  void upDifferenceTakesTheSlackOfTheParts() {
    // 3 - 1 = 2, slack (3 + 1) * 2^-40 = 2^-38, ulp at 2 is 2^-51: the slack is four times larger than with
    // the difference's own magnitude (2 * 2^-40).
    assertEquals(2 + 0x1p-38 + 0x1p-51, Rounding.upDifference(3.0, 1.0));
    assertEquals(Double.MIN_VALUE, Rounding.upDifference(0.0, 0.0));
  }

  @Test
  void singleOperationsRoundUpByOneUlpOfTheNearestResult() {
    // 1 + 2^-53 is a tie, rounded to even (1); the bound is the next double.
    assertEquals(1 + 0x1p-52, Rounding.sumUp(1.0, 0x1p-53));
    assertEquals(3 + 0x1p-51, Rounding.sumUp(1.0, 2.0));
    assertEquals(6 + 0x1p-50, Rounding.productUp(2.0, 3.0));
    // 1/3 to nearest is 0x1.5555555555555p-2 (below 1/3); the bound is one ulp above it.
    assertEquals(0x1.5555555555556p-2, Rounding.quotientUp(1.0, 3.0));
    assertEquals(2 + 0x1p-51, Rounding.sqrtUp(4.0));
    assertEquals(Double.MIN_VALUE, Rounding.sqrtUp(0.0));
  }

  @Test
  void tightSumUpMovesOnlyWhenTheNearestSumIsBelowTheExactOne() {
    assertEquals(0.75, Rounding.tightSumUp(0.5, 0.25)); // exact
    assertEquals(0x1p-20, Rounding.tightSumUp(0x1p-21, 0x1p-21)); // 2 x (delta / 2) stays delta
    assertEquals(1 + 0x1p-52, Rounding.tightSumUp(1.0, 0x1p-53)); // tie rounded down to 1
    // 0.1 + 0.2 rounds to 0x1.3333333333334p-2, above the exact sum of the two doubles: kept as it is.
    assertEquals(0x1.3333333333334p-2, Rounding.tightSumUp(0.1, 0.2));
    assertEquals(0x1.3333333333335p-2, Rounding.sumUp(0.1, 0.2));
  }

  @Test
  void singleOperationsBoundTheExactResultFromAbove() {
    MathContext wide = new MathContext(60);
    double[] operands = {0.1, 0.7, 1.0 / 3, 2.5, 1e-9, 12345.678};
    for (double a : operands) {
      for (double b : operands) {
        BigDecimal x = new BigDecimal(a);
        BigDecimal y = new BigDecimal(b);
        assertTrue(new BigDecimal(Rounding.sumUp(a, b)).compareTo(x.add(y)) > 0);
        assertTrue(new BigDecimal(Rounding.tightSumUp(a, b)).compareTo(x.add(y)) >= 0);
        assertTrue(Rounding.tightSumUp(a, b) <= Rounding.sumUp(a, b));
        assertTrue(new BigDecimal(Rounding.productUp(a, b)).compareTo(x.multiply(y)) > 0);
        assertTrue(new BigDecimal(Rounding.quotientUp(a, b)).compareTo(x.divide(y, wide)) > 0);
      }
      assertTrue(new BigDecimal(Rounding.sqrtUp(a)).compareTo(new BigDecimal(a).sqrt(wide)) > 0);
    }
  }
}
