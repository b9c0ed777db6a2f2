package org.dpstream.core.privacy.noise;

import static org.dpstream.core.privacy.noise.IntegerGoodnessOfFit.assertFits;
import static org.dpstream.core.privacy.noise.IntegerGoodnessOfFit.assertFitsNormalBins;
import static org.dpstream.core.privacy.noise.IntegerGoodnessOfFit.assertReplays;
import static org.dpstream.core.privacy.noise.IntegerGoodnessOfFit.keyedBits;
import static org.dpstream.core.privacy.noise.IntegerGoodnessOfFit.pmfOverRange;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.function.LongSupplier;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.statistics.inference.ChiSquareTest;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;

/**
 * The tabulated exact discrete Gaussian: its certified table, the exact fallback when a uniform falls
 * between a boundary's bounds, the tail, and the law of its draws against the exact pmf. Fixed keys; each
 * stated alpha is the rate at which a correct sampler would fail under a fresh key.
 */
class TabulatedDiscreteGaussianTest {

  private static final int CELLS = GaussianCellCdf.CELLS;
  private static final double TWO_64 = 0x1p64;


  private static double[] pmf(double sigma) {
    int reach = (int) Math.ceil(40 * sigma) + 40;
    return pmfOverRange(x -> x * (double) x / (2 * sigma * sigma), reach);
  }

  @Test
  void qIsBracketedByTheAlternatingSeries() {
    BigInteger[] q = GaussianCellCdf.expMinusPowerOfTwo(17, 128);
    assertTrue(q[0].compareTo(q[1]) <= 0);
    assertTrue(q[1].subtract(q[0]).compareTo(BigInteger.TWO) <= 0, "width " + q[1].subtract(q[0]));
    // exp(-2^-17) = 1 - 2^-17 + 2^-35 - ...: its first 50 bits against the double.
    assertEquals(Math.exp(-0x1p-17), Math.scalb(q[0].doubleValue(), -128), 0x1p-52);
    // At x = 2^-1 by hand: 1 - 1/2 + 1/8 - 1/48 + 1/384 = 0.6067708... <= exp(-1/2) = 0.60653066 <= 1 - 1/2 + 1/8.
    BigInteger[] half = GaussianCellCdf.expMinusPowerOfTwo(1, 20);
    assertTrue(half[0].longValue() <= Math.floor(Math.exp(-0.5) * (1 << 20)));
    assertTrue(half[1].longValue() >= Math.ceil(Math.exp(-0.5) * (1 << 20)));
    assertTrue(half[1].longValue() - half[0].longValue() <= 2);
  }

  /** The table brackets F_t within 2 units of 2^-64 and agrees with a double computation of the cell CDF. */
  @Test
  void tableBoundsAreTightMonotoneAndMatchTheNormalCells() {
    long[][] table = TabulatedDiscreteGaussian.tableBounds();
    double total = 0;
    double[] weights = new double[40 << GaussianCellCdf.CELL_BITS];
    for (int t = 0; t < weights.length; t++) {
      double s = t / 256.0;
      weights[t] = Math.exp(-s * s / 2);
      total += weights[t];
    }
    double cumulative = 0;
    for (int t = 0; t < CELLS; t++) {
      cumulative += weights[t];
      assertTrue(Long.compareUnsigned(table[0][t], table[1][t]) <= 0, "lo <= hi at " + t);
      assertTrue(table[1][t] - table[0][t] <= 2, "width at " + t);
      if (t > 0) {
        assertTrue(Long.compareUnsigned(table[1][t - 1], table[0][t]) < 0, "increasing at " + t);
      }
      double low = unsignedToDouble(table[0][t]) / TWO_64;
      assertEquals(cumulative / total, low, 1e-13, "F_" + t);
    }
    // The tail beyond 7 sigma: P(cell >= 7 * 256), about 2.6e-12 of the half-line's mass.
    double tail = unsignedToDouble(-table[1][CELLS - 1]) / TWO_64; // 2^64 - hi, exactly
    double expectedTail = 0;
    for (int t = CELLS; t < weights.length; t++) {
      expectedTail += weights[t] / total;
    }
    assertEquals(expectedTail, tail, 1e-16 + 1e-3 * expectedTail);
  }

  /** Bounds at a higher precision nest inside the lower precision's: the refinement never contradicts. */
  @Test
  void boundsNestAcrossPrecisions() {
    BigInteger[][] coarse = GaussianCellCdf.bounds(64);
    BigInteger[][] fine = GaussianCellCdf.bounds(192);
    for (int t = 0; t < CELLS; t += 7) {
      assertTrue(fine[0][t].compareTo(coarse[0][t].shiftLeft(128)) >= 0, "lo at " + t);
      assertTrue(fine[1][t].compareTo(coarse[1][t].shiftLeft(128)) <= 0, "hi at " + t);
      assertTrue(fine[1][t].subtract(fine[0][t]).compareTo(BigInteger.TWO) <= 0, "width at " + t);
    }
  }

  /**
   * The source word that makes the 64-bit prefix of u equal to {@code u}: the sampler reads u's top 14 bits,
   * then its next 50, each from the lowest bits of the reservoir on.
   */
  private static long firstWordFor(long u) {
    return (u >>> 50) | (u << 14);
  }

  /**
   * A 64-bit prefix between lo_t and hi_t leaves u &lt; F_t open; the next word settles it. With sigma = 256
   * (M = 1: no within-cell bits) the draw is the cell itself: the word after decides between t and t + 1.
   */
  @Test
  void aUniformBetweenTheBoundsIsSettledExactlyByMoreDigits() {
    TabulatedDiscreteGaussian gaussian = TabulatedDiscreteGaussian.ofCellWidth(1);
    long[][] table = TabulatedDiscreteGaussian.tableBounds();
    int t = 100;
    assertTrue(table[1][t] - table[0][t] >= 1, "an open interval at t = 100");
    BigInteger[][] fine = GaussianCellCdf.bounds(128);
    BigInteger base = BigInteger.valueOf(table[0][t]).shiftLeft(64); // table[0][t] > 0 and < 2^63 at t = 100
    // 2^128 F_t lies inside (lo 2^64, (lo + 1) 2^64): a next word of 0 is below, of all ones above.
    assertTrue(fine[0][t].compareTo(base.add(BigInteger.ONE)) >= 0);
    assertTrue(fine[1][t].compareTo(base.add(BigInteger.ONE.shiftLeft(64)).subtract(BigInteger.ONE)) <= 0);

    long first = firstWordFor(table[0][t]);
    ScriptedWords below = new ScriptedWords(first, 0L, 0L);
    assertEquals(t, gaussian.sample(RandomBits.of(below)));
    assertEquals(3, below.used, "64 bits of u, one more word of its digits, one word for the sign");
    ScriptedWords above = new ScriptedWords(first, -1L, 0L);
    assertEquals(t + 1, gaussian.sample(RandomBits.of(above)));
    ScriptedWords negative = new ScriptedWords(first, 0L, 1L);
    assertEquals(-t, gaussian.sample(RandomBits.of(negative)));
  }

  /**
   * 14 bits decide when their interval lies inside one cell: u's first 14 bits 0 are cell 0, then the sign
   * bit, all from one word; -0 is drawn again, here into cell 6 from the middle of its interval.
   */
  @Test
  void fourteenBitsDecideInsideACell() {
    TabulatedDiscreteGaussian gaussian = TabulatedDiscreteGaussian.ofCellWidth(1);
    long[][] table = TabulatedDiscreteGaussian.tableBounds();
    ScriptedWords zero = new ScriptedWords(0L);
    assertEquals(0, gaussian.sample(RandomBits.of(zero)));
    assertEquals(1, zero.used);
    long middleOfSix = table[1][5] / 2 + table[0][6] / 2;
    long prefixOfSix = middleOfSix >>> 50;
    // bits 0-13: prefix 0 (cell 0), bit 14: sign 1 (-0, rejected), bits 15-28: cell 6, bit 29: sign 0.
    ScriptedWords minusZero = new ScriptedWords((1L << 14) | (prefixOfSix << 15));
    assertEquals(6, gaussian.sample(RandomBits.of(minusZero)));
    assertEquals(1, minusZero.used);
  }

  /**
   * The within-cell uniform by hand. M = 3: L = 2 + 10 bits, threshold 2^12 mod 3 = 1; U = 0 (U M mod 2^12 = 0 &lt; 1)
   * is rejected, U = 1366 gives floor(4098 / 4096) = 1, U = 4095 gives 2, U = 1365 gives 0. M = 2^40 + 3: L = 51,
   * U = 2^51 - 1 gives floor(U M / 2^51) = M - 1 (the high word of the product counts).
   */
  @Test
  void withinCellUniformByHand() {
    TabulatedDiscreteGaussian three = TabulatedDiscreteGaussian.ofCellWidth(3);
    ScriptedWords words = new ScriptedWords(0L | (1366L << 12) | (4095L << 24) | (1365L << 36));
    RandomBits bits = RandomBits.of(words);
    assertEquals(1, three.withinCell(bits), "U = 0 rejected, then U = 1366");
    assertEquals(2, three.withinCell(bits));
    assertEquals(0, three.withinCell(bits));
    assertEquals(1, words.used);
    long m = (1L << 40) + 3;
    TabulatedDiscreteGaussian wide = TabulatedDiscreteGaussian.ofCellWidth(m);
    assertEquals(m - 1, wide.withinCell(RandomBits.of(new ScriptedWords((1L << 51) - 1))));
    // U = 0 rejected (U M mod 2^51 = 0 < 2^51 mod M = M - 6144), then U = 2^50 (bits 51-101: bit 37 of the
    // second word): U M mod 2^51 = 2^50 is kept, c = floor(M / 2) = 2^39 + 1.
    assertEquals((1L << 39) + 1, wide.withinCell(RandomBits.of(new ScriptedWords(0L, 1L << 37))));
  }

  /**
   * The within-cell acceptance, exp(-g) by von Neumann, by hand: M = 3, t = 1000, c = 2, so A_k = Bernoulli(6002 /
   * 393216) Bernoulli(2 / 3) Bernoulli(1 / k), each decided by a 10-bit V (the first true for V &lt;= 14, false
   * for V &gt;= 16; the second true for V &lt;= 681; Bernoulli(1/2) true for V &lt;= 511). A_1 false: accept; A_1
   * true, A_2 false: reject; A_1, A_2 true, A_3 false: accept. c = 0 accepts without a bit.
   */
  @Test
  void withinCellAcceptanceByHand() {
    TabulatedDiscreteGaussian three = TabulatedDiscreteGaussian.ofCellWidth(3);
    ScriptedWords none = new ScriptedWords();
    assertTrue(three.acceptInTable(RandomBits.of(none), 1000, 0));
    assertEquals(0, none.used);
    assertTrue(three.acceptInTable(RandomBits.of(new ScriptedWords(16L)), 1000, 2), "A_1 false");
    assertFalse(three.acceptInTable(RandomBits.of(new ScriptedWords(14L | (681L << 10) | (16L << 20))), 1000, 2),
        "A_1 true at the edges of its factors, A_2's first factor false: k = 2, reject");
    assertTrue(three.acceptInTable(RandomBits.of(new ScriptedWords(0L | (682L << 10) | (700L << 20))), 1000, 2),
        "A_1's second factor: V = 682 straddles 2/3, the next 10 bits (700) say false: accept");
    assertTrue(three.acceptInTable(
        RandomBits.of(new ScriptedWords(0L | (0L << 10) | (0L << 20) | (0L << 30) | (511L << 40) | (16L << 50))),
        1000, 2), "A_1, A_2 true, A_3 false: k = 3, accept");
    assertFalse(three.acceptInTable(RandomBits.of(new ScriptedWords(1023L << 40)), 1000, 2),
        "A_1 true, A_2 false on its Bernoulli(1/2) alone: k = 2, reject");
    // The first factor's numerator is 2tM + c = 6002: V = 15 straddles 6002 / 393216 (15.63 of 1024), and the
    // remainder 247808 puts the next 10 bits' cut at 644.3, so V' = 640 is below the fraction (5998 would put it at
    // 634.7). Then Bernoulli(2/3) true (V = 0): A_1 true; A_2's first factor false (V = 1023): k = 2, reject.
    assertFalse(three.acceptInTable(RandomBits.of(new ScriptedWords(15L | (640L << 10) | (1023L << 30))), 1000, 2));
  }

  /**
   * A first word of all ones lies above every bound: the tail, |x| >= 7 sigma, unless the within-cell
   * acceptance (about 0.986 there) rejects and a fresh word restarts the draw. At least 190 of 200 draws in the
   * tail (at most 10 rejections when 2.8 are expected: rate below 2e-4), none beyond 9 sigma (rate below 1e-3).
   */
  @Test
  void aFirstWordOfAllOnesDrawsFromTheTail() {
    TabulatedDiscreteGaussian gaussian = TabulatedDiscreteGaussian.ofCellWidth(3);
    RandomBits keyed = keyedBits(40);
    int inTail = 0;
    for (int i = 0; i < 200; i++) {
      long x = gaussian.sample(RandomBits.of(allOnesThen(keyed::nextWord)));
      if (Math.abs(x) >= 7 * gaussian.sigma()) {
        inTail++;
      }
      assertTrue(Math.abs(x) < 9 * gaussian.sigma(), "tail draw " + x);
    }
    assertTrue(inTail >= 190, "in the tail: " + inTail);
  }

  /** The tail's cells against their exact law, P(N + j) proportional to exp(-(2Nj + j^2) / 2^17). alpha = 1e-4. */
  @Test
  void tailCellsFollowTheirExactLaw() {
    RandomBits bits = keyedBits(41);
    int n = 50_000;
    int bins = 120;
    double[] expected = new double[bins];
    double total = 0;
    double[] weight = new double[4000];
    for (int j = 0; j < weight.length; j++) {
      weight[j] = Math.exp(-(2.0 * CELLS * j + (double) j * j) / 0x1p17);
      total += weight[j];
    }
    for (int j = 0; j < weight.length; j++) {
      expected[Math.min(bins - 1, j)] += n * weight[j] / total;
    }
    long[] observed = new long[bins];
    for (int i = 0; i < n; i++) {
      int j = TabulatedDiscreteGaussian.tailCell(bits) - CELLS;
      observed[Math.min(bins - 1, j)]++;
    }
    double pValue = ChiSquareTest.withDefaults().test(expected, observed).getPValue();
    assertTrue(pValue >= 1e-4, "p-value " + pValue);
  }

  /** Chi-square against the exact pmf, bulk and tails, at sigma = 256, 512, 768 (M = 1, 2, 3). alpha = 1e-4 each. */
  @Test
  void matchesTheExactPmf() {
    for (long m = 1; m <= 3; m++) {
      TabulatedDiscreteGaussian gaussian = TabulatedDiscreteGaussian.ofCellWidth(m);
      assertEquals(256 * m, gaussian.sigma());
      RandomBits bits = keyedBits(50 + m);
      int bins = assertFits(() -> gaussian.sample(bits), pmf(gaussian.sigma()), 400_000, 1e-4,
          "sigma = " + gaussian.sigma());
      assertTrue(bins > 1000, "bins " + bins);
    }
  }

  /**
   * The pmf folded by cell position: x mod M for M = 1000 (sigma 256,000) is where a wrong within-cell
   * acceptance would show (the acceptance is the only thing that depends on c). The exact law of x mod M
   * from the pmf; 20 bins of 50 residues, alpha = 1e-4.
   */
  @Test
  void withinCellPositionsFollowTheExactLaw() {
    long m = 1000;
    TabulatedDiscreteGaussian gaussian = TabulatedDiscreteGaussian.ofCellWidth(m);
    double sigma = gaussian.sigma();
    int bins = 20;
    double[] expected = new double[bins];
    int n = 400_000;
    long reach = (long) (12 * sigma);
    double total = 0;
    double[] byBin = new double[bins];
    for (long x = 0; x <= reach; x++) {
      double w = Math.exp(-(x / sigma) * (x / sigma) / 2) * (x == 0 ? 1 : 2);
      byBin[(int) ((x % m) * bins / m)] += w;
      total += w;
    }
    for (int b = 0; b < bins; b++) {
      expected[b] = n * byBin[b] / total;
    }
    long[] observed = new long[bins];
    RandomBits bits = keyedBits(60);
    for (int i = 0; i < n; i++) {
      long x = Math.abs(gaussian.sample(bits));
      observed[(int) ((x % m) * bins / m)]++;
    }
    double pValue = ChiSquareTest.withDefaults().test(expected, observed).getPValue();
    assertTrue(pValue >= 1e-4, "p-value " + pValue);
  }

  /** A large sigma against 20 equiprobable bins of N(0, sigma^2) (the two differ by exp(-2 pi^2 sigma^2)). alpha = 1e-4. */
  @Test
  void largeSigmaFitsTheNormal() {
    TabulatedDiscreteGaussian gaussian = TabulatedDiscreteGaussian.ofSigmaAtLeast(100_000_000_000L);
    assertEquals(0, gaussian.sigma() % 256);
    assertTrue(gaussian.sigma() - 100_000_000_000L < 256);
    assertFitsNormalBins(gaussian, gaussian.sigma(), keyedBits(61), 40_000);
  }

  /**
   * Variance at sigma = 256 against the exact one from the pmf (below sigma^2, CKS20), 5 standard errors of
   * the sample variance: false-failure rate below 1e-6.
   */
  @Test
  void varianceIsTheExactOne() {
    TabulatedDiscreteGaussian gaussian = TabulatedDiscreteGaussian.ofCellWidth(1);
    double[] pmf = pmf(256);
    double[] moments = IntegerGoodnessOfFit.secondAndFourthMoments(pmf);
    double variance = moments[0];
    double fourth = moments[1];
    // At sigma = 256 the discrete variance equals sigma^2 up to exp(-2 pi^2 sigma^2) (CKS20).
    assertEquals(256.0 * 256.0, variance, 1e-9 * 256 * 256);
    RandomBits bits = keyedBits(62);
    int n = 200_000;
    double sumSquares = 0;
    for (int i = 0; i < n; i++) {
      long x = gaussian.sample(bits);
      sumSquares += x * (double) x;
    }
    double standardError = Math.sqrt((fourth - variance * variance) / n);
    assertEquals(variance, sumSquares / n, 5 * standardError);
  }

  @Test
  void replaysBitForBitFromTheKeyedSource() {
    assertReplays(TabulatedDiscreteGaussian.ofCellWidth(123_456_789), 63);
  }

  @Test
  void sigmaIsRoundedUpToAWholeNumberOfCells() {
    assertEquals(256, TabulatedDiscreteGaussian.ofSigmaAtLeast(1).sigma());
    assertEquals(256, TabulatedDiscreteGaussian.ofSigmaAtLeast(256).sigma());
    assertEquals(512, TabulatedDiscreteGaussian.ofSigmaAtLeast(257).sigma());
    assertEquals(2, TabulatedDiscreteGaussian.ofSigmaAtLeast(512).cellWidth());
    long widest = TabulatedDiscreteGaussian.MAX_CELL_WIDTH;
    assertEquals(widest << 8, TabulatedDiscreteGaussian.ofCellWidth(widest).sigma(), "the widest cell is taken");
  }

  @Test
  void rejectsBadParameters() {
    assertThrows(IllegalArgumentException.class, () -> TabulatedDiscreteGaussian.ofCellWidth(0));
    assertThrows(IllegalArgumentException.class,
        () -> TabulatedDiscreteGaussian.ofCellWidth(TabulatedDiscreteGaussian.MAX_CELL_WIDTH + 1));
    assertThrows(IllegalArgumentException.class, () -> TabulatedDiscreteGaussian.ofSigmaAtLeast(0));
  }

  private static double unsignedToDouble(long value) {
    double high = (double) (value >>> 1) * 2;
    return high + (value & 1);
  }

  /**
   * A first word exactly on an upper bound hi_t: u &gt;= hi_t 2^-64 &gt;= F_t is certain, so the cell is t + 1 at
   * once (the sign from the next word), without asking for u's further digits.
   */
  @Test
  void aWordOnAnUpperBoundMovesPastTheCellWithoutMoreDigits() {
    TabulatedDiscreteGaussian gaussian = TabulatedDiscreteGaussian.ofCellWidth(1);
    long[][] table = TabulatedDiscreteGaussian.tableBounds();
    for (int t : new int[] {0, 100}) {
      assertTrue(Long.compareUnsigned(table[1][t] + 1, table[0][t + 1]) <= 0, "cell t + 1 holds the next word");
      ScriptedWords words = new ScriptedWords(firstWordFor(table[1][t]), 1L);
      assertEquals(-(t + 1), gaussian.sample(RandomBits.of(words)), "t = " + t);
      assertEquals(2, words.used);
    }
  }

  /**
   * u's digits past 64 bits against F_t exactly: a 128-bit prefix V with V + 1 = lo (u certainly below) or V = hi
   * (certainly not) is decided from that one extra word; inside [lo, hi) a third word is read and compared at 192
   * bits. A first word of 0 is u below 2^-64.
   */
  @Test
  void moreDigitsDecideAtTheFirstPrecisionThatSettlesIt() {
    int t = 100;
    BigInteger[][] bounds128 = GaussianCellCdf.bounds(128);
    BigInteger[] at128 = {bounds128[0][t], bounds128[1][t]};
    BigInteger[] at192 = {GaussianCellCdf.bounds(192)[0][t]};
    BigInteger justBelow = at128[0].subtract(BigInteger.ONE);
    assertTrue(digits(justBelow).isBelowCdf(t));
    assertFalse(digits(at128[1]).isBelowCdf(t));
    // V = lo at 128 bits is open there (lo < hi); the third word, 0 or all ones, decides at 192 bits.
    assertTrue(at128[0].compareTo(at128[1]) < 0, "open at 128 bits");
    BigInteger low192 = at128[0].shiftLeft(64);
    BigInteger high192 = low192.add(BigInteger.ONE.shiftLeft(64)).subtract(BigInteger.ONE);
    assertEquals(low192.add(BigInteger.ONE).compareTo(at192[0]) <= 0, digitsOf(at128[0], 0L).isBelowCdf(t));
    assertEquals(high192.add(BigInteger.ONE).compareTo(at192[0]) <= 0, digitsOf(at128[0], -1L).isBelowCdf(t));
    assertTrue(new TabulatedDiscreteGaussian.UniformDigits(0L, RandomBits.of(new ScriptedWords(0L))).isBelowCdf(0),
        "u < 2^-64 lies below F_0");
  }

  /** The digits of u from a 128-bit prefix, and no word more. */
  private static TabulatedDiscreteGaussian.UniformDigits digits(BigInteger prefix) {
    ScriptedWords second = new ScriptedWords(prefix.longValue());
    return new TabulatedDiscreteGaussian.UniformDigits(prefix.shiftRight(64).longValue(), RandomBits.of(second));
  }

  /** The digits of u from a 128-bit prefix and a third word. */
  private static TabulatedDiscreteGaussian.UniformDigits digitsOf(BigInteger prefix, long third) {
    ScriptedWords rest = new ScriptedWords(prefix.longValue(), third);
    return new TabulatedDiscreteGaussian.UniformDigits(prefix.shiftRight(64).longValue(), RandomBits.of(rest));
  }

  /**
   * The within-cell uniform keeps U M mod 2^L = 2^L mod M (the threshold itself) and any residue at or above it,
   * whatever its low bit: M = 3, L = 12, threshold 1; U = 2731 gives 3 U = 2 2^12 + 1, c = 2; U = 2 gives 6, c = 0.
   */
  @Test
  void withinCellKeepsResiduesFromTheThresholdOn() {
    TabulatedDiscreteGaussian three = TabulatedDiscreteGaussian.ofCellWidth(3);
    RandomBits bits = RandomBits.of(new ScriptedWords(2731L | (2L << 12) | (1365L << 24)));
    assertEquals(2, three.withinCell(bits));
    assertEquals(0, three.withinCell(bits));
    assertEquals(0, three.withinCell(bits), "U = 1365: 4095, c = 0");
    // M = 5: L = 13, threshold 2^13 mod 5 = 2. U = 3277: 5 U = 2 2^13 + 1, residue 1, rejected; then U = 1, c = 0.
    TabulatedDiscreteGaussian five = TabulatedDiscreteGaussian.ofCellWidth(5);
    assertEquals(0, five.withinCell(RandomBits.of(new ScriptedWords(3277L | (1L << 13)))));
  }

  /**
   * A uniform above every bound (a first word of all ones) takes its cell from the tail's law, then its position
   * in the cell, the tail's acceptance and the sign, in that order, on the bits that follow. Draws whose first
   * acceptance rejects (about 2%) start over from a fresh uniform and are left out.
   */
  @Test
  void aUniformAboveEveryBoundTakesTheTailStepsInOrder() {
    TabulatedDiscreteGaussian gaussian = TabulatedDiscreteGaussian.ofCellWidth(3);
    int compared = 0;
    int firstTailCell = 0;
    for (int i = 0; i < 300; i++) {
      RandomBits reference = RandomBits.of(tailWords(i));
      int t = TabulatedDiscreteGaussian.tailCell(reference);
      long c = gaussian.withinCell(reference);
      if (!gaussian.acceptInTail(reference, t, c)) {
        continue;
      }
      long magnitude = t * 3L + c;
      long expected = reference.nextBit() ? -magnitude : magnitude;
      assertEquals(expected, gaussian.sample(RandomBits.of(allOnesThen(tailWords(i)::nextLong))), "draw " + i);
      compared++;
      firstTailCell += t == 7 * 256 ? 1 : 0;
    }
    assertTrue(compared >= 280, "compared " + compared);
    assertTrue(firstTailCell > 0, "the first tail cell came up");
  }

  /**
   * The acceptance follows the cell: exp(-g) by the table's factors in a table cell, by the tail's single fraction
   * from the first tail cell N on, on the same bits. M = 3, c = 1 (U = 1366) both times.
   *
   * <p>Cell 1000 (a first word in its middle): the table's A_1 = Bernoulli(6001 / 393216) Bernoulli(1/3) Bernoulli(1)
   * and A_2 (the same with Bernoulli(1/2)) read 10-bit chunks of 0, all true; A_3's first chunk 1023 is false: k = 3,
   * accept, then the sign bit 1. The tail's rounds would read the same chunks as four true rounds and reject.
   *
   * <p>Cell N (a first word of all ones, then the tail's geometric step stopped at once: A_1 true on chunk 0, A_2's
   * Bernoulli(1/2) false on 1023): the tail's A_k = Bernoulli(1 / k) Bernoulli(10753 / 1179648) read chunks 0 for
   * two rounds, then 1023 for Bernoulli(1/3): k = 3, accept, sign bit 1. The table's factors would reject.
   */
  @Test
  void theAcceptanceIsTheTablesInATableCellAndTheTailsFromTheFirstTailCell() {
    TabulatedDiscreteGaussian gaussian = TabulatedDiscreteGaussian.ofCellWidth(3);
    long[][] table = TabulatedDiscreteGaussian.tableBounds();
    long middleOf1000 = (table[1][999] >>> 1) + (table[0][1000] >>> 1);
    ScriptedWords inTable = new ScriptedWords(firstWordFor(middleOf1000), 1366L | (3L << 62), 0xFFL | (1L << 8));
    assertEquals(-(1000 * 3 + 1), gaussian.sample(RandomBits.of(inTable)));
    assertEquals(3, inTable.used);
    ScriptedWords firstTail = new ScriptedWords(-1L, (1023L << 10) | (1366L << 30), (1023L << 8) | (1L << 28));
    assertEquals(-(7 * 256 * 3 + 1), gaussian.sample(RandomBits.of(firstTail)));
    assertEquals(3, firstTail.used);
  }

  /** A word of all ones, then the words of {@code rest}. */
  private static UniformRandomProvider allOnesThen(LongSupplier rest) {
    return new UniformRandomProvider() {
      boolean first = true;

      @Override
      public long nextLong() {
        if (first) {
          first = false;
          return -1L;
        }
        return rest.getAsLong();
      }
    };
  }

  private static final KeyedNoiseSource TAIL_SOURCE = new KeyedNoiseSource(TestKeys.seeded(90));

  private static UniformRandomProvider tailWords(int i) {
    return TAIL_SOURCE.forStream("test", "tail").at(i, 0);
  }

  /**
   * The tail's acceptance exp(-c (2tM + c) / (M^2 2^17)) where it exceeds 1: M = 1000, t = 100,000, c = 999 give
   * g = 1.5243..., so exp(-g) = 0.2178; 20,000 draws within 5 binomial standard deviations (rate below 1e-6).
   */
  @Test
  void theTailAcceptanceHasTheRightMean() {
    TabulatedDiscreteGaussian gaussian = TabulatedDiscreteGaussian.ofCellWidth(1000);
    RandomBits bits = keyedBits(91);
    int n = 20_000;
    int accepted = 0;
    for (int i = 0; i < n; i++) {
      accepted += gaussian.acceptInTail(bits, 100_000, 999) ? 1 : 0;
    }
    double p = Math.exp(-999.0 * (2.0 * 100_000 * 1000 + 999) / (1e6 * (1 << 17)));
    assertEquals(n * p, accepted, 5 * Math.sqrt(n * p * (1 - p)));
  }
}
