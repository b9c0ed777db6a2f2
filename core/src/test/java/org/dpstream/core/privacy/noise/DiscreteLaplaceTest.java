package org.dpstream.core.privacy.noise;

import static org.dpstream.core.privacy.noise.IntegerGoodnessOfFit.assertFits;
import static org.dpstream.core.privacy.noise.IntegerGoodnessOfFit.keyedBits;
import static org.dpstream.core.privacy.noise.IntegerGoodnessOfFit.pmfOverRange;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** The exact discrete Laplace and the exact Bernoulli draws beneath both samplers; fixed keys, alpha stated. */
class DiscreteLaplaceTest {

  private static final int DRAWS = 100_000;

  // alpha = 1e-4 each.
  @Test
  void integerScaleMatchesTheExactPmf() {
    DiscreteLaplace laplace = DiscreteLaplace.ofScale(3, 1);
    RandomBits bits = keyedBits(11);
    assertFits(() -> laplace.sample(bits), pmfOverRange(x -> Math.abs(x) / 3.0, 2000), DRAWS, 1e-4, "scale 3");
  }

  @Test
  void rationalScaleMatchesTheExactPmf() {
    DiscreteLaplace laplace = DiscreteLaplace.ofScale(7, 2);
    assertEquals(7, laplace.scaleNumerator());
    assertEquals(2, laplace.scaleDenominator());
    RandomBits bits = keyedBits(12);
    assertFits(() -> laplace.sample(bits), pmfOverRange(x -> Math.abs(x) * 2 / 7.0, 2000), DRAWS, 1e-4, "scale 7/2");
  }

  /**
   * A draw at scale 2 by hand. U: 1 bit; its tilt Bernoulli(exp(-U / 2)) is certain at U = 0 and at U = 1 reads
   * the 10-bit chunk of Bernoulli(1/2); V: Bernoulli(exp(-1)) draws, here one failing chunk; then the sign bit.
   * A 1 bit after a zero magnitude (-0) is refused and the draw starts over.
   */
  @Test
  void theSignIsTheBitAfterTheMagnitudeAndMinusZeroIsDrawnAgain() {
    DiscreteLaplace laplace = DiscreteLaplace.ofScale(2, 1);
    long magnitudeOne = 1L | (1023L << 1) | (1023L << 11); // U = 1, tilt kept (chunk 1023 fails A_1), V = 0
    assertEquals(-1, laplace.sample(RandomBits.of(new ScriptedWords(magnitudeOne | (1L << 21)))));
    assertEquals(1, laplace.sample(RandomBits.of(new ScriptedWords(magnitudeOne))));
    long magnitudeZero = 1023L << 1; // U = 0, tilt certain, V = 0 (chunk 1023)
    assertEquals(0, laplace.sample(RandomBits.of(new ScriptedWords(magnitudeZero))));
    long minusZeroThenMinusOne = magnitudeZero | (1L << 11) | (magnitudeOne << 12) | (1L << 33);
    assertEquals(-1, laplace.sample(RandomBits.of(new ScriptedWords(minusZeroThenMinusOne))));
  }

  @Test
  void largestScaleSamplesWithoutOverflow() {
    DiscreteLaplace laplace = DiscreteLaplace.ofScale(DiscreteLaplace.MAX_SCALE_NUMERATOR, 1);
    RandomBits bits = keyedBits(13);
    for (int i = 0; i < 1000; i++) {
      // |X| > 80 t has probability below exp(-80).
      assertTrue(Math.abs(laplace.sample(bits)) < 80 * DiscreteLaplace.MAX_SCALE_NUMERATOR);
    }
  }

  @Test
  void rejectsBadScales() {
    assertThrows(IllegalArgumentException.class, () -> DiscreteLaplace.ofScale(0, 1));
    assertThrows(IllegalArgumentException.class, () -> DiscreteLaplace.ofScale(1, 0));
    assertEquals("discrete Laplace scale t/s needs 1 <= t <= 2^53 and s >= 1, got 9007199254740993/1",
        assertThrows(IllegalArgumentException.class,
            () -> DiscreteLaplace.ofScale(DiscreteLaplace.MAX_SCALE_NUMERATOR + 1, 1)).getMessage());
  }

  /**
   * Bernoulli(exp(-g)) on both arithmetic paths against exp(-g): the count of 200,000 draws must be
   * within 5 binomial standard deviations (false-failure rate below 1e-6 each).
   */
  @Test
  void bernoulliOfExpMinusHasTheRightMeanOnBothPaths() {
    RandomBits bits = keyedBits(14);
    int n = 200_000;
    long[][] fractions = {{1, 3}, {5, 2}, {7, 7}, {0, 1}};
    for (long[] g : fractions) {
      double p = Math.exp(-(double) g[0] / g[1]);
      BigInteger wideNumerator = BigInteger.valueOf(g[0]).shiftLeft(80);
      BigInteger wideDenominator = BigInteger.valueOf(g[1]).shiftLeft(80);
      int narrow = 0;
      int wide = 0;
      for (int i = 0; i < n; i++) {
        narrow += ExactBernoulli.expMinus(bits, g[0], g[1]) ? 1 : 0;
        wide += ExactBernoulli.expMinus(bits, wideNumerator, wideDenominator) ? 1 : 0;
      }
      double tolerance = 5 * Math.sqrt(n * p * (1 - p)) + 1e-9;
      assertEquals(n * p, narrow, tolerance, "long path, g = " + g[0] + "/" + g[1]);
      assertEquals(n * p, wide, tolerance, "BigInteger path, g = " + g[0] + "/" + g[1]);
    }
  }

  /** Uniform below 2^64 + 2^63 (a bound past one long): each of the three thirds gets 1/3 (5 sd, rate < 1e-6). */
  @Test
  void uniformBelowAWideBoundIsUniform() {
    BigInteger bound = BigInteger.ONE.shiftLeft(64).add(BigInteger.ONE.shiftLeft(63));
    BigInteger third = bound.divide(BigInteger.valueOf(3));
    RandomBits bits = keyedBits(15);
    int n = 90_000;
    int[] counts = new int[3];
    for (int i = 0; i < n; i++) {
      BigInteger u = ExactBernoulli.uniformBelow(bits, bound);
      assertTrue(u.signum() >= 0 && u.compareTo(bound) < 0);
      counts[u.divide(third).min(BigInteger.TWO).intValueExact()]++;
    }
    for (int count : counts) {
      assertEquals(n / 3.0, count, 5 * Math.sqrt(n * (1 / 3.0) * (2 / 3.0)));
    }
  }
}
