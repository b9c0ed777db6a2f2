package org.dpstream.core.privacy.factorization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import org.junit.jupiter.api.Test;

class PrefixSumSquareRootTest {

  @Test
  void firstCoefficientsByHand() {
    // r_k = binom(2k, k) / 4^k: 1, 2/4, 6/16, 20/64, 70/256; all exact in binary.
    double[] r = PrefixSumSquareRoot.coefficients(5);
    assertEquals(1.0, r[0]);
    assertEquals(0.5, r[1]);
    assertEquals(0.375, r[2]);
    assertEquals(0.3125, r[3]);
    assertEquals(70.0 / 256, r[4]);
    assertEquals(0, PrefixSumSquareRoot.coefficients(0).length, "no coefficients asked, none given");
    assertEquals(0, PrefixSumSquareRoot.squaredColumnNorm(0));
    assertThrows(IllegalArgumentException.class, () -> PrefixSumSquareRoot.coefficients(-1));
    assertThrows(IllegalArgumentException.class, () -> PrefixSumSquareRoot.squaredColumnNorm(-1));
  }

  @Test
  void recurrenceMatchesTheExactBinomialQuotientToWithinItsErrorBound() {
    double[] r = PrefixSumSquareRoot.coefficients(600); // past k = 515, where binom(2k,k) overflows a double
    MathContext precise = MathContext.DECIMAL128;
    BigInteger binomial = BigInteger.ONE; // binom(2k, k)
    for (int k = 0; k < r.length; k++) {
      if (k > 0) {
        binomial = binomial.multiply(BigInteger.valueOf(2L * k)).multiply(BigInteger.valueOf(2L * k - 1))
            .divide(BigInteger.valueOf((long) k * k));
      }
      double exact = new BigDecimal(binomial).divide(new BigDecimal(BigInteger.valueOf(4).pow(k)), precise).doubleValue();
      double relativeError = Math.abs(r[k] - exact) / exact;
      assertTrue(relativeError <= (k + 1) * 0x1p-52, "k=" + k + ": relative error " + relativeError);
    }
  }

  @Test
  void squareOfTheFactorIsThePrefixSumMatrix() {
    int n = 64;
    double[] r = PrefixSumSquareRoot.coefficients(n);
    double[][] c = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j <= i; j++) {
        c[i][j] = r[i - j];
      }
    }
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        double product = 0;
        for (int m = 0; m < n; m++) {
          product += c[i][m] * c[m][j];
        }
        assertEquals(i >= j ? 1.0 : 0.0, product, 1e-12, "(C C)[" + i + "][" + j + "]");
      }
    }
  }

  @Test
  void upperBoundsBoundTheNearestValuesTightly() {
    double nearest = 1;
    double upper = 1;
    for (long k = 1; k <= 100_000; k++) {
      nearest = PrefixSumSquareRoot.coefficientAfter(nearest, k);
      upper = PrefixSumSquareRoot.coefficientUpperBoundAfter(upper, k);
      // The nearest chain is itself within k 2^-52 of the exact value, so this brackets the exact r_k.
      assertTrue(upper >= nearest * (1 + k * 0x1p-52), "k=" + k);
    }
    assertTrue(upper <= nearest * (1 + 1e-10), () -> "bound too loose");
  }

  @Test
  void squaredColumnNormGrowsLikeLogOverPi() {
    assertEquals(0, PrefixSumSquareRoot.squaredColumnNorm(0));
    assertEquals(1.0 + 0.25 + 9.0 / 64 + 25.0 / 256, PrefixSumSquareRoot.squaredColumnNorm(4));
    // sum_{k < n} r_k^2 = (ln n + gamma + 4 ln 2) / pi + O(1/n), from r_k^2 = (1 - 1/(4k) + ..) / (pi k).
    double atMillion = PrefixSumSquareRoot.squaredColumnNorm(1_000_000);
    assertEquals((Math.log(1e6) + 0.5772156649 + 4 * Math.log(2)) / Math.PI, atMillion, 1e-6);
  }
}
