package org.dpstream.core.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.SplittableRandom;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.statistics.inference.ChiSquareTest;
import org.junit.jupiter.api.Test;

/**
 * The fixed-point exponential mechanism: its tables and arithmetic against exact decimal arithmetic, its
 * law computed exactly from the weights, its bounded-range bound on neighbours (the privacy claim), and its
 * fixed consumption of random bits. Random inputs come from fixed seeds.
 */
class FixedPointExponentialMechanismTest {

  private static final MathContext DIGITS = DecimalExp.DIGITS;
  private static final BigDecimal TWO_TO_62 = new BigDecimal(BigInteger.ONE.shiftLeft(62));
  private static final BigInteger TWO_TO_128 = BigInteger.ONE.shiftLeft(128);

  private static BigDecimal expMinus(BigDecimal x) {
    return DecimalExp.expMinus(x);
  }

  private static BigDecimal fixed56(long x) {
    return new BigDecimal(BigInteger.valueOf(x)).divide(new BigDecimal(BigInteger.ONE.shiftLeft(56)), DIGITS);
  }

  @Test
  void everyTableEntryIsWithinOneUnitBelowTheTrueValue() {
    for (int n = 0; n <= FixedPointExponentialMechanism.GAP_CLAMP; n++) {
      assertWithinOneUnitBelow(FixedPointExponentialMechanism.WHOLE[n], expMinus(BigDecimal.valueOf(n)), "e^-" + n);
    }
    for (int i = 0; i < FixedPointExponentialMechanism.FRACTION.length; i++) {
      for (int b = 0; b < 256; b++) {
        BigDecimal x = new BigDecimal(BigInteger.valueOf(b)).divide(
            new BigDecimal(BigInteger.ONE.shiftLeft(8 * (i + 1))), DIGITS);
        assertWithinOneUnitBelow(FixedPointExponentialMechanism.FRACTION[i][b], expMinus(x), "chunk " + i + ", " + b);
      }
    }
    assertEquals(1L << 62, FixedPointExponentialMechanism.WHOLE[0]);
    assertEquals(1L << 62, FixedPointExponentialMechanism.FRACTION[6][0]);
  }

  private static void assertWithinOneUnitBelow(long entry, BigDecimal value, String what) {
    BigDecimal scaled = value.multiply(TWO_TO_62, DIGITS);
    BigDecimal below = scaled.subtract(new BigDecimal(entry), DIGITS);
    assertTrue(below.signum() >= 0 && below.compareTo(BigDecimal.ONE) < 0, what + ": entry " + entry + " vs " + scaled);
  }

  /** (1 - 2^-31) 2^62 exp(-x) <= w(x) <= 2^62 exp(-x) for x on the 2^-56 grid: edges and 20,000 random points. */
  @Test
  void weightsAreWithinTheProvenRelativeError() {
    SplittableRandom random = new SplittableRandom(17);
    long top = (long) FixedPointExponentialMechanism.GAP_CLAMP << 56;
    long[] edges = {0, 1, 0xFF, 0xFFL << 48, (1L << 56) - 1, 1L << 56, top - 1, top, (19L << 56) | 0x00FF_FFFF_FFFF_FFFFL};
    BigDecimal lowest = BigDecimal.ONE;
    for (int i = 0; i < 20_000 + edges.length; i++) {
      long x = i < edges.length ? edges[i] : random.nextLong(top + 1);
      BigDecimal exact = expMinus(fixed56(x)).multiply(TWO_TO_62, DIGITS);
      BigDecimal ratio = new BigDecimal(FixedPointExponentialMechanism.weight(x)).divide(exact, DIGITS);
      assertTrue(ratio.compareTo(BigDecimal.ONE) <= 0, "x = " + x + ": ratio " + ratio);
      assertTrue(ratio.compareTo(BigDecimal.ONE.subtract(new BigDecimal(0x1p-31))) >= 0, "x = " + x + ": ratio " + ratio);
      lowest = lowest.min(ratio);
    }
    // The bound is not vacuous: near x = 20 the ratio uses a good part of it.
    assertTrue(lowest.compareTo(BigDecimal.ONE.subtract(new BigDecimal(0x1p-36))) < 0, "lowest ratio " + lowest);
  }

  /** fixedPoint = floor(lambda g 2^56) exactly, for lambdas of many magnitudes (up to X) and gaps up to G + 1. */
  @Test
  void lambdaTimesGapIsTheExactFloor() {
    SplittableRandom random = new SplittableRandom(23);
    for (int i = 0; i < 20_000; i++) {
      double lambda = Math.min(Math.scalb(1 + random.nextDouble(), random.nextInt(-80, 5)), 20);
      int exponent = Math.getExponent(lambda) - 52;
      long mantissa = (long) Math.scalb(lambda, -exponent);
      long clamp = FixedPointExponentialMechanism.gapClamp(mantissa, exponent);
      BigDecimal exactClamp = BigDecimal.valueOf(FixedPointExponentialMechanism.GAP_CLAMP)
          .divide(new BigDecimal(lambda), DIGITS).setScale(0, RoundingMode.FLOOR);
      assertEquals(exactClamp.min(new BigDecimal(BigInteger.ONE.shiftLeft(62))).longValueExact(), clamp,
          "lambda " + lambda);
      long gap = i % 3 == 0 ? clamp + 1 : random.nextLong(clamp + 2);
      long expected = new BigDecimal(lambda).multiply(BigDecimal.valueOf(gap))
          .multiply(new BigDecimal(BigInteger.ONE.shiftLeft(56))).setScale(0, RoundingMode.FLOOR).longValueExact();
      assertEquals(expected, FixedPointExponentialMechanism.fixedPoint(mantissa, gap, -(exponent + 56)),
          "lambda " + lambda + ", gap " + gap);
    }
    assertEquals(0, FixedPointExponentialMechanism.gapClamp(0, -1074));
  }

  /**
   * floor(mantissa gap 2^-shift) for every right shift whose result is in range (below 2^62), past 64 (only the high
   * word counts) and past 127 (a lambda below 2^-131: the product of at most 2^115 floors to 0), against BigInteger.
   */
  @Test
  void fixedPointIsTheExactFloorAtEveryRightShift() {
    long[] mantissas = {1, 3, (1L << 52) + 12_345, (1L << 53) - 1};
    long[] gaps = {0, 1, 7, 1L << 40, (1L << 62) - 3, 1L << 62};
    for (int shift = 1; shift <= 1100; shift++) {
      for (long mantissa : mantissas) {
        for (long gap : gaps) {
          BigInteger expected = BigInteger.valueOf(mantissa).multiply(BigInteger.valueOf(gap)).shiftRight(shift);
          if (expected.bitLength() > 62) {
            continue; // beyond the contract: lambda gap stays below 2X
          }
          assertEquals(expected.longValueExact(), FixedPointExponentialMechanism.fixedPoint(mantissa, gap, shift),
              mantissa + " * " + gap + " >> " + shift);
        }
      }
    }
  }

  /** A lambda of X or more (up to the largest double) weighs the best candidates 2^62 and the others e^-X. */
  @Test
  void aLargeLambdaWeighsEveryWorseCandidateAtTheClamp() {
    long floor = FixedPointExponentialMechanism.weight((long) FixedPointExponentialMechanism.GAP_CLAMP << 56);
    for (double lambda : new double[] {20, 21, 1e300, Double.MAX_VALUE}) {
      long[] weights = {3, 7, 6, 7, Long.MIN_VALUE / 4};
      FixedPointExponentialMechanism.weigh(weights, lambda);
      assertArrayEquals(new long[] {floor, 1L << 62, floor, 1L << 62, floor}, weights, "lambda " + lambda);
    }
    // Just below X a gap of one is not clamped.
    long[] weights = {0, 1};
    FixedPointExponentialMechanism.weigh(weights, 19.5);
    assertTrue(weights[0] > floor, weights[0] + " vs " + floor);
  }

  /** floor(a b / 2^62) exactly, against BigInteger, over the whole range [0, 2^62]. */
  @Test
  void fixedPointProductsAreExactFloors() {
    SplittableRandom random = new SplittableRandom(41);
    for (int i = 0; i < 50_000; i++) {
      long a = i == 0 ? 1L << 62 : random.nextLong((1L << 62) + 1);
      long b = i < 2 ? 1L << 62 : random.nextLong((1L << 62) + 1);
      long expected = BigInteger.valueOf(a).multiply(BigInteger.valueOf(b)).shiftRight(62).longValueExact();
      assertEquals(expected, FixedPointExponentialMechanism.multiply(a, b), a + " * " + b);
    }
  }

  /**
   * lambda = 0 over 50 candidates: W = 50 2^62 carries into the high word. R = the middle of bucket j's share
   * of [0, 2^128) must give j, for every j.
   */
  @Test
  void manyCandidatesCarryIntoTheHighWordAndStillDrawTheirBucket() {
    int k = 50;
    for (int j = 0; j < k; j++) {
      BigInteger r = TWO_TO_128.multiply(BigInteger.valueOf(2L * j + 1)).divide(BigInteger.valueOf(2L * k));
      long[] utilities = new long[k];
      int drawn = FixedPointExponentialMechanism.sample(utilities, 0.0,
          RandomBits.of(new ScriptedWords(r.shiftRight(64).longValue(), r.longValue())));
      assertEquals(j, drawn, "bucket " + j);
    }
  }

  @Test
  void scaleDownIsTheHighHalfOfTheExactProduct() {
    SplittableRandom random = new SplittableRandom(29);
    long[] words = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE};
    for (int i = 0; i < 50_000; i++) {
      long rHigh = i < 25 ? words[i % 5] : random.nextLong();
      long rLow = i < 25 ? words[i / 5] : random.nextLong();
      long wHigh = random.nextLong(1L << 30);
      long wLow = i % 7 == 0 ? -1 : random.nextLong();
      BigInteger r = unsigned(rHigh).shiftLeft(64).or(unsigned(rLow));
      BigInteger w = unsigned(wHigh).shiftLeft(64).or(unsigned(wLow));
      BigInteger t = r.multiply(w).shiftRight(128);
      long[] got = FixedPointExponentialMechanism.scaleDown(rHigh, rLow, wHigh, wLow);
      assertEquals(t, unsigned(got[0]).shiftLeft(64).or(unsigned(got[1])), "r = " + r + ", w = " + w);
    }
  }

  /**
   * Every combination of extreme words, where the carries of the middle and low words are forced: e.g. r = w =
   * (2^64 - 1) 2^64 + (2^64 - 1) style words carry out of both partial sums at once.
   */
  @Test
  void scaleDownCarriesAtTheExtremeWords() {
    long[] words = {0, 1, 5, (1L << 30) - 1, Long.MAX_VALUE, Long.MIN_VALUE, -5, -1};
    long[] highWords = {0, 1, 5, (1L << 30) - 1, (1L << 62) - 1}; // w < 2^126
    for (long rHigh : words) {
      for (long rLow : words) {
        for (long wLow : words) {
          for (long wHigh : highWords) {
            BigInteger r = unsigned(rHigh).shiftLeft(64).or(unsigned(rLow));
            BigInteger w = unsigned(wHigh).shiftLeft(64).or(unsigned(wLow));
            long[] got = FixedPointExponentialMechanism.scaleDown(rHigh, rLow, wHigh, wLow);
            assertEquals(r.multiply(w).shiftRight(128), unsigned(got[0]).shiftLeft(64).or(unsigned(got[1])),
                "r = " + r + ", w = " + w);
          }
        }
      }
    }
  }

  private static BigInteger unsigned(long word) {
    return new BigInteger(Long.toUnsignedString(word));
  }

  /**
   * The privacy claim: for utilities u and neighbours u' (each moved by at most Delta), the exact law's log
   * ratio ranges over at most 2 lambda Delta + slack across the candidates. Adversarial neighbours: every
   * utility moved by +-Delta, the best one moved the other way, and gaps at and across the clamp.
   */
  @Test
  void neighboursStayWithinTheBoundedRangeBound() {
    SplittableRandom random = new SplittableRandom(31);
    double worstExcess = Double.NEGATIVE_INFINITY;
    for (int trial = 0; trial < 400; trial++) {
      int k = 2 + random.nextInt(40);
      long delta = 1 + random.nextLong(1L << 20);
      double lambda = Math.scalb(1 + random.nextDouble(), -random.nextInt(10, 40)) / delta;
      long spread = (long) Math.min(0x1p58, random.nextDouble() * 3 * FixedPointExponentialMechanism.GAP_CLAMP / lambda) + 1;
      long[] u = new long[k];
      long[] neighbour = new long[k];
      for (int v = 0; v < k; v++) {
        u[v] = random.nextLong(spread);
        neighbour[v] = u[v] + (random.nextBoolean() ? delta : -delta);
      }
      double[] p = exactLaw(u, lambda);
      double[] q = exactLaw(neighbour, lambda);
      double max = Double.NEGATIVE_INFINITY;
      double min = Double.POSITIVE_INFINITY;
      for (int v = 0; v < k; v++) {
        double logRatio = Math.log(p[v]) - Math.log(q[v]);
        max = Math.max(max, logRatio);
        min = Math.min(min, logRatio);
      }
      double bound = 2 * lambda * delta + FixedPointExponentialMechanism.BOUNDED_RANGE_SLACK;
      // The log ratios come from doubles (relative error ~1e-16 on p, q): allow 1e-14 of rounding.
      assertTrue(max - min <= bound + 1e-14, "trial " + trial + ": range " + (max - min) + " > " + bound);
      worstExcess = Math.max(worstExcess, (max - min) - 2 * lambda * delta);
    }
    assertTrue(worstExcess > -1e-3, "the test never came near the bound: " + worstExcess);
  }

  /**
   * P(v) exactly: the number of 128-bit R with C_(v-1) <= floor(R W / 2^128) &lt; C_v is ceil(C_v 2^128 / W) -
   * ceil(C_(v-1) 2^128 / W); returned as doubles (rounded once).
   */
  private static double[] exactLaw(long[] utilities, double lambda) {
    long[] weights = utilities.clone();
    FixedPointExponentialMechanism.weigh(weights, lambda);
    BigInteger total = BigInteger.ZERO;
    for (long w : weights) {
      total = total.add(BigInteger.valueOf(w));
    }
    double[] law = new double[weights.length];
    BigInteger cumulative = BigInteger.ZERO;
    BigInteger previousCount = BigInteger.ZERO;
    for (int v = 0; v < weights.length; v++) {
      cumulative = cumulative.add(BigInteger.valueOf(weights[v]));
      BigInteger count = CertifiedExp.ceilDivide(cumulative.shiftLeft(128), total);
      law[v] = new BigDecimal(count.subtract(previousCount)).divide(new BigDecimal(TWO_TO_128), DIGITS).doubleValue();
      previousCount = count;
    }
    assertEquals(TWO_TO_128, previousCount);
    return law;
  }

  /** The law is the softmax of the clamped gaps within a relative 2^-30. */
  @Test
  void theLawIsTheClampedSoftmax() {
    long[] utilities = {0, -3, 7, 7, -1_000_000, 2};
    double lambda = 0.25;
    double[] law = exactLaw(utilities, lambda);
    double[] softmax = new double[utilities.length];
    double total = 0;
    for (int v = 0; v < utilities.length; v++) {
      softmax[v] = Math.exp(-Math.min(lambda * (7 - utilities[v]), FixedPointExponentialMechanism.GAP_CLAMP));
      total += softmax[v];
    }
    for (int v = 0; v < utilities.length; v++) {
      assertEquals(softmax[v] / total, law[v], softmax[v] / total * 0x1p-30, "candidate " + v);
    }
    // The clamp: the far candidate keeps e^-20 of weight (about 8.6e-10 of the mass) instead of e^-250000.
    assertTrue(law[4] > 5e-10, "far candidate " + law[4]);
  }

  /** Draws against the exact law: chi-square over 8 candidates, 80,000 draws, alpha = 1e-4. */
  @Test
  void drawsFollowTheExactLaw() {
    long[] utilities = {0, -1, -2, 3, 3, 10, -40, 5};
    double lambda = 0.375;
    double[] law = exactLaw(utilities, lambda);
    RandomBits bits = IntegerGoodnessOfFit.keyedBits(71);
    long[] observed = new long[utilities.length];
    for (int i = 0; i < 80_000; i++) {
      observed[FixedPointExponentialMechanism.sample(utilities.clone(), lambda, bits)]++;
    }
    double pValue = ChiSquareTest.withDefaults().test(law, observed).getPValue();
    assertTrue(pValue >= 1e-4, "p-value " + pValue);
  }

  /** Two words decide: R = 0 gives the first candidate, R = 2^127 the bucket holding W / 2. */
  @Test
  void theDrawIsTheBucketOfTheScaledWords() {
    assertEquals(0, FixedPointExponentialMechanism.sample(new long[] {5, 5}, 1.0, RandomBits.of(new ScriptedWords(0, 0))));
    assertEquals(1, FixedPointExponentialMechanism.sample(new long[] {5, 5}, 1.0,
        RandomBits.of(new ScriptedWords(Long.MIN_VALUE, 0))));
    // Just below half: t = 2^62 - 1, still the first bucket.
    assertEquals(0, FixedPointExponentialMechanism.sample(new long[] {5, 5}, 1.0,
        RandomBits.of(new ScriptedWords(Long.MAX_VALUE, -1))));
    assertEquals(2, FixedPointExponentialMechanism.sample(new long[] {1, 1, 1}, 0.0, RandomBits.of(new ScriptedWords(-1, -1))));
  }

  /** lambda = 0 weighs every candidate 2^62: uniform whatever the utilities. */
  @Test
  void zeroLambdaIsUniform() {
    long[] weights = {Long.MIN_VALUE / 4, 0, Long.MAX_VALUE / 4};
    FixedPointExponentialMechanism.weigh(weights, 0.0);
    assertArrayEquals(new long[] {1L << 62, 1L << 62, 1L << 62}, weights);
  }

  /** The same two words and nothing else, whatever the utilities: no timing or bit count to read the data from. */
  @Test
  void everyDrawReadsExactlyTwoWords() {
    SplittableRandom random = new SplittableRandom(37);
    for (int trial = 0; trial < 2_000; trial++) {
      long[] utilities = new long[1 + random.nextInt(50)];
      for (int v = 0; v < utilities.length; v++) {
        utilities[v] = random.nextBoolean() ? random.nextLong(-(1L << 60), 1L << 60) : random.nextLong(-5, 5);
      }
      long[] calls = {0};
      UniformRandomProvider counting = () -> {
        calls[0]++;
        return random.nextLong();
      };
      FixedPointExponentialMechanism.sample(utilities, Math.scalb(random.nextDouble(), -random.nextInt(60)),
          RandomBits.of(counting));
      assertEquals(2, calls[0], "trial " + trial);
    }
  }

  @Test
  void refusesBadInput() {
    RandomBits bits = RandomBits.of(new ScriptedWords(0, 0));
    assertThrows(IllegalArgumentException.class, () -> FixedPointExponentialMechanism.sample(new long[0], 1, bits));
    assertThrows(IllegalArgumentException.class, () -> FixedPointExponentialMechanism.sample(new long[] {1}, -1, bits));
    assertThrows(IllegalArgumentException.class,
        () -> FixedPointExponentialMechanism.sample(new long[] {1}, Double.NaN, bits));
    assertThrows(IllegalArgumentException.class,
        () -> FixedPointExponentialMechanism.sample(new long[] {1}, Double.POSITIVE_INFINITY, bits));
    assertThrows(ArithmeticException.class,
        () -> FixedPointExponentialMechanism.sample(new long[] {Long.MIN_VALUE, Long.MAX_VALUE}, 1, bits));
    assertEquals(0, FixedPointExponentialMechanism.sample(new long[] {Long.MIN_VALUE}, Double.MIN_VALUE, bits));
  }
}
