package org.dpstream.core.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** The bit reservoir: order of bits, no reuse, exact Bernoulli and uniform draws on scripted words. */
class RandomBitsTest {


  @Test
  void bitsComeLowestFirstAndEachWordServesSixtyFourBits() {
    ScriptedWords source = new ScriptedWords(0b1011L, -1L);
    RandomBits bits = RandomBits.of(source);
    assertTrue(bits.nextBit());
    assertTrue(bits.nextBit());
    assertFalse(bits.nextBit());
    assertTrue(bits.nextBit());
    for (int i = 4; i < 64; i++) {
      assertFalse(bits.nextBit(), "bit " + i);
    }
    assertEquals(1, source.used, "64 bits from one word");
    assertTrue(bits.nextBit());
    assertEquals(2, source.used);
  }

  @Test
  void aRunOfBitsAcrossTwoWordsTakesTheRestOfTheFirstAsItsLowBits() {
    ScriptedWords source = new ScriptedWords(0xF000_0000_0000_0000L, 0b101L);
    RandomBits bits = RandomBits.of(source);
    assertEquals(0, bits.nextBits(60));
    // 4 bits left (1111), then 3 from the next word (101): 101_1111.
    assertEquals(0b101_1111L, bits.nextBits(7));
    assertEquals(2, source.used);
    assertEquals(0, bits.nextBits(61), "the second word's remaining 61 bits are 0");
    assertEquals(2, source.used);
  }

  @Test
  void aFreshWordLeavesTheReservoirAlone() {
    ScriptedWords source = new ScriptedWords(0b110L, 42L, 0L);
    RandomBits bits = RandomBits.of(source);
    assertFalse(bits.nextBit());
    assertEquals(42L, bits.nextWord());
    assertTrue(bits.nextBit());
    assertTrue(bits.nextBit());
    assertEquals(2, source.used);
  }

  @Test
  void uniformBelowRejectsOutOfRangeCandidatesFromTheFewestBits() {
    // bound 5: 3-bit candidates; 7 and 5 are rejected, then 2 is returned: 9 bits used.
    ScriptedWords source = new ScriptedWords(0b010_101_111L);
    RandomBits bits = RandomBits.of(source);
    assertEquals(2, bits.uniformBelow(5));
    assertEquals(0, bits.nextBits(55));
    assertEquals(1, source.used, "9 + 55 bits: one word");
    assertEquals(0, RandomBits.of(new ScriptedWords()).uniformBelow(1), "one value: no bits");
    // bound 4: 2-bit candidates (the bits of bound - 1), none rejected.
    RandomBits four = RandomBits.of(new ScriptedWords(0b11_10L));
    assertEquals(2, four.uniformBelow(4));
    assertEquals(3, four.nextBits(2), "only two bits used");
    assertThrows(IllegalArgumentException.class, () -> RandomBits.of(new ScriptedWords()).uniformBelow(0));
  }

  /**
   * Bernoulli(1/3) reads 10 bits V: 1/3 of 1024 is 341.33, so V &lt;= 340 is below the fraction, V &gt;=
   * 342 above, and V = 341 straddles it: the remainder 1024 - 3 * 341 = 1 carries to the next 10 bits.
   */
  @Test
  void bernoulliComparesTenBitChunksWithTheFraction() {
    assertTrue(RandomBits.of(new ScriptedWords(340)).bernoulli(1, 3));
    assertFalse(RandomBits.of(new ScriptedWords(342)).bernoulli(1, 3));
    // V = 341, then V' = 341 again: 1 / 3 of the next chunk's 1024 is again 341.33, so V' = 341 straddles, then
    // V'' = 340 decides true.
    long straddle = 341L | (341L << 10) | (340L << 20);
    ScriptedWords source = new ScriptedWords(straddle);
    RandomBits bits = RandomBits.of(source);
    assertTrue(bits.bernoulli(1, 3));
    assertEquals(0, bits.nextBits(34), "30 bits used, 34 left");
    assertEquals(1, source.used);
    assertFalse(RandomBits.of(new ScriptedWords(341L | (342L << 10))).bernoulli(1, 3));
  }

  @Test
  void bernoulliOfZeroAndOfOneDrawNothing() {
    RandomBits none = RandomBits.of(new ScriptedWords());
    assertFalse(none.bernoulli(0, 7));
    assertTrue(none.bernoulli(7, 7));
    assertTrue(none.bernoulli(8, 7));
  }

  /** A denominator of 2^62 or more is compared bit by bit: 2^62 + 1 over 2^63 - 1 is just above 1/2. */
  @Test
  void bernoulliOfAWideDenominatorComparesBitByBit() {
    long numerator = (1L << 62) + 1;
    long denominator = Long.MAX_VALUE;
    // First bit 0 against the fraction's first digit 1: below.
    assertTrue(RandomBits.of(new ScriptedWords(0b0L)).bernoulli(numerator, denominator));
    // First bit 1: the fraction's digits after the first are 0000...: any further 1 bit means above.
    assertFalse(RandomBits.of(new ScriptedWords(0b11L)).bernoulli(numerator, denominator));
  }

  /** Bernoulli(a / b) on the keyed source within 5 binomial standard deviations (false-failure rate below 1e-6 each). */
  @Test
  void bernoulliHasTheRightMean() {
    RandomBits bits = IntegerGoodnessOfFit.keyedBits(40);
    long[][] fractions = {{1, 3}, {2, 7}, {1, 1000}, {999_999_999_999L, 1_000_000_000_000L}, {1, 2}, {5, 1L << 62}};
    int n = 200_000;
    for (long[] f : fractions) {
      double p = (double) f[0] / f[1];
      int count = 0;
      for (int i = 0; i < n; i++) {
        count += bits.bernoulli(f[0], f[1]) ? 1 : 0;
      }
      assertEquals(n * p, count, 5 * Math.sqrt(n * p * (1 - p)) + 1e-9, f[0] + "/" + f[1]);
    }
  }

  /**
   * For any fraction a / b below 1 whose denominator leaves room for chunks (b &lt; 2^62), {@code bernoulli} is
   * the comparison its documentation states: U's digits read w = min(10, 62 - log2 b) bits at a time, decided
   * at the first chunk whose interval [P, P + 1) 2^-kw lies wholly below a / b (true) or at or above it
   * (false), and no bit beyond that chunk is read.
   */
  @Property(tries = 500, seed = "4711")
  void bernoulliIsTheChunkedComparisonAndReadsNoFurther(
      @ForAll long seed, @ForAll @LongRange(min = 2, max = (1L << 62) - 1) long denominator, @ForAll long anyNumerator) {
    long numerator = 1 + Math.floorMod(anyNumerator, denominator - 1);
    int width = Math.min(RandomBits.CHUNK_BITS, Long.numberOfLeadingZeros(denominator) - 1);
    RandomBits bits = RandomBits.of(NoiseTestSupport.seeded(seed));
    RandomBits reference = RandomBits.of(NoiseTestSupport.seeded(seed));
    assertEquals(chunkedComparison(reference, numerator, denominator, width), bits.bernoulli(numerator, denominator));
    assertEquals(reference.nextBits(63), bits.nextBits(63), "the same bits consumed");
  }

  /** Above 2^62 the digits come one at a time: the same comparison with one-bit chunks decides the same way. */
  @Property(tries = 500, seed = "4712")
  void aWideDenominatorDecidesAsTheBitwiseComparison(
      @ForAll long seed, @ForAll @LongRange(min = 1L << 62, max = Long.MAX_VALUE) long denominator,
      @ForAll long anyNumerator) {
    long numerator = 1 + Math.floorMod(anyNumerator, denominator - 1);
    RandomBits bits = RandomBits.of(NoiseTestSupport.seeded(seed));
    RandomBits reference = RandomBits.of(NoiseTestSupport.seeded(seed));
    assertEquals(chunkedComparison(reference, numerator, denominator, 1), bits.bernoulli(numerator, denominator));
  }

  private static boolean chunkedComparison(RandomBits bits, long numerator, long denominator, int width) {
    BigInteger b = BigInteger.valueOf(denominator);
    BigInteger prefix = BigInteger.ZERO;
    BigInteger scaledNumerator = BigInteger.valueOf(numerator);
    while (true) {
      prefix = prefix.shiftLeft(width).add(BigInteger.valueOf(bits.nextBits(width)));
      scaledNumerator = scaledNumerator.shiftLeft(width); // a 2^(k w)
      if (prefix.add(BigInteger.ONE).multiply(b).compareTo(scaledNumerator) <= 0) {
        return true;
      }
      if (prefix.multiply(b).compareTo(scaledNumerator) >= 0) {
        return false;
      }
    }
  }

  /** A chunk that lands exactly on the fraction (V b = a 2^w: U &gt;= 1/2 here) decides false at once. */
  @Test
  void aChunkOnTheFractionDecidesAtOnce() {
    RandomBits bits = RandomBits.of(new ScriptedWords(512L | (0b1011L << 10)));
    assertFalse(bits.bernoulli(1, 2));
    assertEquals(0b1011L, bits.nextBits(4), "ten bits used");
  }

  /**
   * Bit by bit, a fraction whose expansion ends (2^61 / 2^62 = 0.1) is read on until U's digits leave it:
   * after U's first digit 1 equals the fraction's, its digits 0, 0 equal the fraction's trailing zeros, and
   * the 1 that follows decides U &gt; 1/2. Exact either way; the bits read are what later draws replay from.
   */
  @Test
  void bitByBitReadsUntilTheUniformLeavesATerminatingFraction() {
    RandomBits bits = RandomBits.of(new ScriptedWords(0b1_1001L));
    assertFalse(bits.bernoulli(1L << 61, 1L << 62));
    assertTrue(bits.nextBit(), "four bits used");
    assertFalse(bits.nextBit());
  }
}
