package org.dpstream.core.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.statistics.inference.ChiSquareTest;
import org.junit.jupiter.api.Test;

/** The exact exponential mechanism against its softmax law; fixed test keys, alpha stated. */
class ExactExponentialMechanismTest {

  /** Words in order; fails if asked for more. */
  private static UniformRandomProvider words(long... values) {
    int[] next = {0};
    return () -> values[next[0]++];
  }

  /** P(v) = exp(lambda u_v) / sum: chi-square over the candidates, 100,000 draws, alpha = 1e-4 each. */
  @Test
  void matchesTheSoftmaxLaw() {
    long[][] cases = {{0, -1, -2, 3, 3}, {-7, 1_000_000_000_000L, 999_999_999_998L}};
    double[] lambdas = {0.5, 0.75};
    for (int c = 0; c < cases.length; c++) {
      long[] utilities = cases[c];
      double lambda = lambdas[c];
      long max = Long.MIN_VALUE;
      for (long u : utilities) {
        max = Math.max(max, u);
      }
      double[] expected = new double[utilities.length];
      for (int v = 0; v < utilities.length; v++) {
        expected[v] = Math.exp(lambda * (utilities[v] - max));
      }
      RandomBits bits = IntegerGoodnessOfFit.keyedBits(50 + c);
      int n = 100_000;
      long[] observed = new long[utilities.length];
      for (int i = 0; i < n; i++) {
        observed[ExactExponentialMechanism.sample(utilities, lambda, bits)]++;
      }
      if (c == 1) {
        // exp(-0.75 * 1e12) is 0 in any arithmetic: the first candidate must never come out.
        assertEquals(0, observed[0]);
        observed = new long[] {observed[1], observed[2]};
        expected = new double[] {expected[1], expected[2]};
      }
      double pValue = ChiSquareTest.withDefaults().test(expected, observed).getPValue();
      assertTrue(pValue >= 1e-4, "case " + c + ": p-value " + pValue);
    }
  }

  /** Two equal utilities: one bit picks the candidate and exp(0) = 1 keeps it without drawing. */
  @Test
  void equalUtilitiesAreDecidedByOneUniformBit() {
    assertEquals(1, ExactExponentialMechanism.sample(new long[] {5, 5}, 1.0, RandomBits.of(words(0b1L))));
    assertEquals(0, ExactExponentialMechanism.sample(new long[] {5, 5}, 1.0, RandomBits.of(words(0b0L))));
  }

  /**
   * Utilities {0, 2}, lambda = 1/2: candidate 0 (bit 0) needs Bernoulli(exp(-1)), candidate 1 (bit 1) is kept
   * at once. Words: bit 0 picks candidate 0; exp(-1)'s first draw, Bernoulli(1/2) from the next 10 bits (0:
   * below 1/2, true), then Bernoulli(1/3) from 10 bits of 1s (false): k = 3, odd, so candidate 0 is kept.
   */
  @Test
  void aLowerUtilityIsKeptWithTheExactExpMinusDraw() {
    long script = 0b0L | (0L << 1) | (0x3FFL << 11);
    assertEquals(0, ExactExponentialMechanism.sample(new long[] {0, 2}, 0.5, RandomBits.of(words(script))));
    // The same start but Bernoulli(1/2) false (10 bits of 1s): k = 2, even, rejected; the next round's bit 1
    // picks candidate 1, kept at once.
    long rejected = 0b0L | (0x3FFL << 1) | (1L << 11);
    assertEquals(1, ExactExponentialMechanism.sample(new long[] {0, 2}, 0.5, RandomBits.of(words(rejected))));
  }

  @Test
  void refusesBadInput() {
    RandomBits bits = RandomBits.of(words());
    assertThrows(IllegalArgumentException.class, () -> ExactExponentialMechanism.sample(new long[0], 1, bits));
    assertThrows(IllegalArgumentException.class, () -> ExactExponentialMechanism.sample(new long[] {1}, 0, bits));
    assertThrows(IllegalArgumentException.class, () -> ExactExponentialMechanism.sample(new long[] {1}, Double.NaN, bits));
    assertThrows(IllegalArgumentException.class,
        () -> ExactExponentialMechanism.sample(new long[] {1}, Double.POSITIVE_INFINITY, bits));
    assertEquals(0, ExactExponentialMechanism.sample(new long[] {Long.MIN_VALUE}, Double.MIN_VALUE, bits));
  }
}
