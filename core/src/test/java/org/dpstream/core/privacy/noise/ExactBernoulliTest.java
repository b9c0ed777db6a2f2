package org.dpstream.core.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** The exact Bernoulli draws on scripted words: which bits decide, how many are read, both arithmetic paths. */
class ExactBernoulliTest {

  private static final BigInteger TWO_TO_THE_63 = BigInteger.ONE.shiftLeft(63);

  /** Bernoulli(a / b) for wide numbers is U &lt; a with U uniform below b; a certain draw reads nothing. */
  @Test
  void wideBernoulliComparesAUniformBelowTheDenominator() {
    BigInteger three = BigInteger.valueOf(3);
    BigInteger ten = BigInteger.TEN;
    // Uniform below 10: 4-bit candidates from the reservoir, so one word serves both draws.
    RandomBits bits = RandomBits.of(new ScriptedWords(0b0011_0010L));
    assertTrue(ExactBernoulli.withProbability(bits, three, ten), "U = 2 is below 3");
    assertFalse(ExactBernoulli.withProbability(bits, three, ten), "U = 3 is not");
    RandomBits none = RandomBits.of(new ScriptedWords());
    assertTrue(ExactBernoulli.withProbability(none, ten, ten), "probability 1: no bits");
  }

  /**
   * A bound of 64 bits or more is drawn from whole words, each word's lowest byte the candidate's highest; a
   * candidate equal to the bound is rejected and a fresh word drawn.
   */
  @Test
  void wideUniformTakesWholeWordsAndRejectsTheBoundItself() {
    BigInteger bound = TWO_TO_THE_63.add(BigInteger.ONE); // 64 bits, 8 bytes: one word per try
    long candidateEqualToBound = 0x0100_0000_0000_0080L; // bytes 0x80, 0, ..., 0, 0x01 from the top
    ScriptedWords source = new ScriptedWords(candidateEqualToBound, 1L);
    BigInteger drawn = ExactBernoulli.uniformBelow(RandomBits.of(source), bound);
    assertEquals(BigInteger.ONE.shiftLeft(56), drawn, "the second word, its low byte on top");
    assertEquals(2, source.used, "one word per try");
  }

  /** g = 0 is certain at every width, also past 63 bits where no long can hold the denominator. */
  @Test
  void expMinusOfZeroIsCertainAtAnyWidth() {
    RandomBits bits = IntegerGoodnessOfFit.keyedBits(50);
    for (BigInteger denominator : new BigInteger[] {BigInteger.ONE, TWO_TO_THE_63, TWO_TO_THE_63.shiftLeft(40)}) {
      for (int i = 0; i < 50; i++) {
        assertTrue(ExactBernoulli.expMinus(bits, BigInteger.ZERO, denominator), "exp(0) over " + denominator);
      }
    }
  }

  /**
   * For any g = a / b with b below 2^63, the BigInteger path draws exactly what the long path draws: the
   * same outcome from the same bits, and no other bits read.
   */
  @Property(tries = 300, seed = "5150")
  void wideExpMinusDrawsAsTheLongPath(@ForAll long seed, @ForAll @LongRange(min = 1, max = 1L << 59) long denominator,
      @ForAll @IntRange(min = 0, max = 8) int whole, @ForAll long anyRest) {
    long numerator = whole * denominator + Math.floorMod(anyRest, denominator);
    RandomBits narrow = RandomBits.of(NoiseTestSupport.seeded(seed));
    RandomBits wide = RandomBits.of(NoiseTestSupport.seeded(seed));
    assertEquals(ExactBernoulli.expMinus(narrow, numerator, denominator),
        ExactBernoulli.expMinus(wide, BigInteger.valueOf(numerator), BigInteger.valueOf(denominator)));
    assertEquals(narrow.nextBits(63), wide.nextBits(63), "the same bits consumed");
  }

  /**
   * exp(-r^2 / (2 n^2)) at r / n = 1/2, round by round: A_1 = Bernoulli(1) Bernoulli(1/2) Bernoulli(r / n)
   * Bernoulli(r / n), all four drawn. Here the fair bit is 1 and the first r / n draw succeeds (10-bit chunk 0)
   * but the second fails (chunk 1023): A_1 = 0, so k = 1 is odd and the draw is true, after 21 bits.
   */
  @Test
  void halfSquareOfRatioNeedsAllFourFactorsOfARound() {
    long word = 1L | (1023L << 11) | (0b101L << 21);
    RandomBits bits = RandomBits.of(new ScriptedWords(word));
    assertTrue(ExactBernoulli.expMinusHalfSquareOfRatio(bits, 1, 2));
    assertEquals(0b101L, bits.nextBits(3), "21 bits used");
    // All four succeed in the first round (fair bit 1, chunks 0 and 0), then the second round's Bernoulli(1/2)
    // fails (chunk 1023): k = 2, even, false.
    long twoRounds = 1L | (1023L << 21);
    assertFalse(ExactBernoulli.expMinusHalfSquareOfRatio(RandomBits.of(new ScriptedWords(twoRounds)), 1, 2));
    assertTrue(ExactBernoulli.expMinusHalfSquareOfRatio(RandomBits.of(new ScriptedWords()), 0, 5), "r = 0: no bits");
  }

  /**
   * Its mean, exp(-9/32) at r / n = 3/4, within 5 binomial standard deviations of 20,000 draws (false-failure
   * rate below 1e-6).
   */
  @Test
  void halfSquareOfRatioHasTheRightMean() {
    RandomBits bits = IntegerGoodnessOfFit.keyedBits(51);
    int n = 20_000;
    int count = 0;
    for (int i = 0; i < n; i++) {
      count += ExactBernoulli.expMinusHalfSquareOfRatio(bits, 3, 4) ? 1 : 0;
    }
    double p = Math.exp(-9.0 / 32);
    assertEquals(n * p, count, 5 * Math.sqrt(n * p * (1 - p)));
  }
}
