package org.dpstream.core.privacy.noise;

import static org.dpstream.core.privacy.noise.IntegerGoodnessOfFit.assertFits;
import static org.dpstream.core.privacy.noise.IntegerGoodnessOfFit.assertFitsNormalBins;
import static org.dpstream.core.privacy.noise.IntegerGoodnessOfFit.assertReplays;
import static org.dpstream.core.privacy.noise.IntegerGoodnessOfFit.keyedBits;
import static org.dpstream.core.privacy.noise.IntegerGoodnessOfFit.pmfOverRange;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/**
 * The exact discrete Gaussian against its exact pmf. Every statistical assertion uses a fixed key, so
 * it is deterministic; the stated alpha is the probability that a correct sampler fails it under a
 * fresh key.
 */
class DiscreteGaussianTest {

  private static final int DRAWS = 100_000;

  private static double[] pmf(double sigmaSquared) {
    int reach = (int) Math.ceil(40 * Math.sqrt(sigmaSquared)) + 40;
    return pmfOverRange(x -> x * (double) x / (2 * sigmaSquared), reach);
  }

  // alpha = 1e-4 each.
  @Test
  void matchesTheExactPmfOnTheLongPath() {
    DiscreteGaussian gaussian = DiscreteGaussian.ofSigmaSquared(BigInteger.valueOf(9), BigInteger.valueOf(4));
    RandomBits bits = keyedBits(1);
    int bins = assertFits(() -> gaussian.sample(bits), pmf(2.25), DRAWS, 1e-4, "sigma^2 = 9/4");
    assertTrue(bins >= 11, "bulk and tails: " + bins);
  }

  @Test
  void matchesTheExactPmfOnTheBigIntegerPath() {
    // sigma^2 = (2^40 + 1) / 2^37: lowest terms, 2 a b t^2 is about 2^81, beyond long arithmetic.
    BigInteger numerator = BigInteger.ONE.shiftLeft(40).add(BigInteger.ONE);
    BigInteger denominator = BigInteger.ONE.shiftLeft(37);
    DiscreteGaussian gaussian = DiscreteGaussian.ofSigmaSquared(numerator, denominator);
    double sigmaSquared = new BigDecimal(numerator).divide(new BigDecimal(denominator)).doubleValue();
    RandomBits bits = keyedBits(2);
    assertFits(() -> gaussian.sample(bits), pmf(sigmaSquared), DRAWS, 1e-4, "sigma^2 = (2^40+1)/2^37");
  }

  @Test
  void matchesTheExactPmfWithAWholeSigma() {
    for (long sigma : new long[] {1, 3, 7}) {
      DiscreteGaussian gaussian = DiscreteGaussian.ofIntegerSigma(sigma);
      assertEquals(sigma, gaussian.proposalScale());
      RandomBits bits = keyedBits(20 + sigma);
      assertFits(() -> gaussian.sample(bits), pmf(sigma * sigma), DRAWS, 1e-4, "sigma = " + sigma);
    }
  }

  /**
   * A whole sigma near the top of the range (2^52 + 1, odd, so q r / n and r / n are far from round
   * numbers): its 20 equiprobable normal bins as in the huge-sigma test. alpha = 1e-4.
   */
  @Test
  void aWholeSigmaNearTheTopOfTheRangeFitsTheNormal() {
    long sigma = (1L << 52) + 1;
    DiscreteGaussian gaussian = DiscreteGaussian.ofIntegerSigma(sigma);
    assertFitsNormalBins(gaussian, sigma, keyedBits(30), 20_000);
  }

  @Test
  void matchesTheExactPmfBelowSigmaOne() {
    DiscreteGaussian gaussian = DiscreteGaussian.ofSigmaSquared(BigInteger.ONE, BigInteger.valueOf(3));
    RandomBits bits = keyedBits(3);
    assertFits(() -> gaussian.sample(bits), pmf(1.0 / 3), DRAWS, 1e-4, "sigma^2 = 1/3");
  }

  /**
   * CKS20: Var[N_Z(0, sigma^2)] < sigma^2. At sigma = 1/2 the gap is large (exact variance 0.2131 vs
   * 0.25), so the sample variance must match the exact one, not sigma^2. Tolerance 5 standard errors
   * of the sample variance (from the exact fourth moment): false-failure rate below 1e-6.
   */
  @Test
  void varianceIsTheExactOneAndBelowSigmaSquared() {
    double sigmaSquared = 0.25;
    double[] pmf = pmf(sigmaSquared);
    double[] moments = IntegerGoodnessOfFit.secondAndFourthMoments(pmf);
    double variance = moments[0];
    double fourth = moments[1];
    assertTrue(variance < sigmaSquared, "CKS20 bound on the exact variance");
    DiscreteGaussian gaussian = DiscreteGaussian.ofSigma(0.5);
    RandomBits bits = keyedBits(4);
    int n = 200_000;
    double sumSquares = 0;
    double sum = 0;
    for (int i = 0; i < n; i++) {
      long x = gaussian.sample(bits);
      sum += x;
      sumSquares += x * (double) x;
    }
    double sampleVariance = sumSquares / n; // the mean is 0 by symmetry: second moment
    double standardError = Math.sqrt((fourth - variance * variance) / n);
    assertEquals(variance, sampleVariance, 5 * standardError);
    assertTrue(sampleVariance < sigmaSquared - 10 * standardError, "well below sigma^2 = 0.25: " + sampleVariance);
    assertEquals(0, sum / n, 5 * Math.sqrt(variance / n), "mean");
  }

  /** A tiny sigma puts all but 2 exp(-50) / Z of the mass on 0: any non-zero in 10^4 draws fails (rate 1e-17). */
  @Test
  void tinySigmaIsAlmostSurelyZero() {
    DiscreteGaussian gaussian = DiscreteGaussian.ofSigmaSquared(BigInteger.ONE, BigInteger.valueOf(100));
    DiscreteGaussian subnormal = DiscreteGaussian.ofSigma(Double.MIN_VALUE);
    RandomBits bits = keyedBits(5);
    for (int i = 0; i < 10_000; i++) {
      assertEquals(0, gaussian.sample(bits));
      assertEquals(0, subnormal.sample(bits));
    }
  }

  /**
   * At sigma = 2^40 the discrete Gaussian is the continuous normal to within exp(-2 pi^2 sigma^2) in
   * total variation (CKS20), so 20 equiprobable bins of N(0, sigma^2) apply. alpha = 1e-4.
   */
  @Test
  void hugeSigmaFitsTheNormalAndStaysExactlyRepresented() {
    double sigma = 0x1p40;
    DiscreteGaussian gaussian = DiscreteGaussian.ofSigma(sigma);
    assertEquals(BigInteger.ONE.shiftLeft(80), gaussian.sigmaSquaredNumerator());
    assertEquals(BigInteger.ONE, gaussian.sigmaSquaredDenominator());
    assertEquals(1L << 40, gaussian.proposalScale(), "a whole sigma is its own proposal scale");
    assertFitsNormalBins(gaussian, sigma, keyedBits(6), 20_000);
  }

  @Test
  void theLargestSigmaSamplesWithoutOverflow() {
    DiscreteGaussian largest = DiscreteGaussian.ofSigma(0x1p52);
    RandomBits bits = keyedBits(7);
    for (int i = 0; i < 1000; i++) {
      long x = largest.sample(bits);
      // |x| > 12 sigma has probability below 1e-32.
      assertTrue(Math.abs(x) < 12 * (1L << 52), "draw " + x);
    }
  }

  @Test
  void sigmaOfADoubleIsItsExactSquare() {
    DiscreteGaussian oneAndHalf = DiscreteGaussian.ofSigma(1.5);
    assertEquals(BigInteger.valueOf(9), oneAndHalf.sigmaSquaredNumerator());
    assertEquals(BigInteger.valueOf(4), oneAndHalf.sigmaSquaredDenominator());
    assertEquals(2, oneAndHalf.proposalScale());
    // 0.1 is not 1/10 in binary: the square of the double itself, exactly.
    DiscreteGaussian tenth = DiscreteGaussian.ofSigma(0.1);
    BigDecimal exact = new BigDecimal(0.1).pow(2);
    BigDecimal represented = new BigDecimal(tenth.sigmaSquaredNumerator())
        .divide(new BigDecimal(tenth.sigmaSquaredDenominator()));
    assertEquals(0, exact.compareTo(represented));
    assertEquals(1, tenth.proposalScale());
  }

  @Test
  void sigmaSquaredIsKeptInLowestTerms() {
    DiscreteGaussian gaussian = DiscreteGaussian.ofSigmaSquared(BigInteger.valueOf(18), BigInteger.valueOf(8));
    assertEquals(BigInteger.valueOf(9), gaussian.sigmaSquaredNumerator());
    assertEquals(BigInteger.valueOf(4), gaussian.sigmaSquaredDenominator());
  }

  @Test
  void replaysBitForBitFromTheKeyedSource() {
    assertReplays(DiscreteGaussian.ofSigma(1234.5), 8);
  }

  @Test
  void rejectsBadParametersWithClearMessages() {
    assertEquals("discrete Gaussian sigma must be finite, > 0 and < 2^53 - 1, got 0.0",
        assertThrows(IllegalArgumentException.class, () -> DiscreteGaussian.ofSigma(0)).getMessage());
    assertEquals("discrete Gaussian sigma must be finite, > 0 and < 2^53 - 1, got 9.007199254740991E15",
        assertThrows(IllegalArgumentException.class, () -> DiscreteGaussian.ofSigma(DiscreteGaussian.MAX_SIGMA)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> DiscreteGaussian.ofSigma(-1));
    assertThrows(IllegalArgumentException.class, () -> DiscreteGaussian.ofSigma(Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> DiscreteGaussian.ofSigma(Double.POSITIVE_INFINITY));
    assertEquals("discrete Gaussian sigma must be finite, > 0 and < 2^53 - 1, got 1.8014398509481984E16",
        assertThrows(IllegalArgumentException.class, () -> DiscreteGaussian.ofSigma(0x1p54)).getMessage());
    assertEquals("discrete Gaussian sigma^2 must be a positive fraction, got 0/1", assertThrows(IllegalArgumentException.class,
        () -> DiscreteGaussian.ofSigmaSquared(BigInteger.ZERO, BigInteger.ONE)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> DiscreteGaussian.ofSigmaSquared(BigInteger.ONE, BigInteger.ZERO));
    assertThrows(IllegalArgumentException.class,
        () -> DiscreteGaussian.ofSigmaSquared(BigInteger.ONE, BigInteger.valueOf(-2)));
    assertThrows(IllegalArgumentException.class,
        () -> DiscreteGaussian.ofSigmaSquared(BigInteger.ONE.shiftLeft(106), BigInteger.ONE));
    assertEquals("discrete Gaussian sigma must be in [1, 2^53 - 1), got 0",
        assertThrows(IllegalArgumentException.class, () -> DiscreteGaussian.ofIntegerSigma(0)).getMessage());
    assertEquals("discrete Gaussian sigma must be in [1, 2^53 - 1), got 9007199254740991", assertThrows(
        IllegalArgumentException.class, () -> DiscreteGaussian.ofIntegerSigma(DiscreteGaussian.MAX_SIGMA)).getMessage());
    // sigma^2 = MAX_SIGMA^2 exactly is refused, one below it (floor(sigma) = MAX_SIGMA - 1) is taken.
    BigInteger largestSquare = BigInteger.valueOf(DiscreteGaussian.MAX_SIGMA).pow(2);
    assertThrows(IllegalArgumentException.class, () -> DiscreteGaussian.ofSigmaSquared(largestSquare, BigInteger.ONE));
    assertEquals(DiscreteGaussian.MAX_SIGMA,
        DiscreteGaussian.ofSigmaSquared(largestSquare.subtract(BigInteger.ONE), BigInteger.ONE).proposalScale());
  }

  /**
   * For any sigma that is not a whole number the draws are CKS20's Algorithm 3, written out here with wide
   * integers only, on the same bits: the proposal's scale, the acceptance exponent and the bits read agree.
   * sigma^2 = 2146435072 is the widest case of the long path (2 a b t^2 just below 2^63), where |Y| b t - a
   * passes 2^31 in the Laplace's tail; (2^40 + 1) / 2^37 takes the BigInteger path.
   */
  @Test
  void drawsAreAlgorithmThreeOnTheSameBits() {
    long[][] sigmaSquared = {{9, 4}, {1, 3}, {2_146_435_072L, 1}, {7, 1}};
    for (long[] fraction : sigmaSquared) {
      assertDrawsAlgorithmThree(BigInteger.valueOf(fraction[0]), BigInteger.valueOf(fraction[1]), 60 + fraction[0]);
    }
    assertDrawsAlgorithmThree(BigInteger.ONE.shiftLeft(40).add(BigInteger.ONE), BigInteger.ONE.shiftLeft(37), 61);
  }

  private static void assertDrawsAlgorithmThree(BigInteger a, BigInteger b, long seed) {
    DiscreteGaussian gaussian = DiscreteGaussian.ofSigmaSquared(a, b);
    long t = a.divide(b).sqrt().longValueExact() + 1;
    assertEquals(t, gaussian.proposalScale());
    DiscreteLaplace proposal = DiscreteLaplace.ofScale(t, 1);
    BigInteger bt = b.multiply(BigInteger.valueOf(t));
    BigInteger acceptanceDenominator = a.multiply(bt).multiply(BigInteger.valueOf(t)).shiftLeft(1);
    RandomBits bits = keyedBits(seed);
    RandomBits reference = keyedBits(seed);
    for (int i = 0; i < 300; i++) {
      long expected;
      while (true) {
        long y = proposal.sample(reference);
        BigInteger deviation = BigInteger.valueOf(Math.abs(y)).multiply(bt).subtract(a);
        if (ExactBernoulli.expMinus(reference, deviation.pow(2), acceptanceDenominator)) {
          expected = y;
          break;
        }
      }
      assertEquals(expected, gaussian.sample(bits), "sigma^2 = " + a + "/" + b + ", draw " + i);
    }
  }

  /**
   * A whole sigma n: the acceptance exp(-(|Y| - n)^2 / (2 n^2)) drawn as its three factors, with | |Y| - n | = q n
   * + r, 0 &lt;= r &lt; n: exp(-q^2 / 2), exp(-q r / n), exp(-r^2 / (2 n^2)), on the same bits.
   */
  @Test
  void aWholeSigmaDrawsTheThreeFactorsOfItsAcceptance() {
    for (long n : new long[] {1, 2, 5}) {
      DiscreteGaussian gaussian = DiscreteGaussian.ofIntegerSigma(n);
      DiscreteLaplace proposal = DiscreteLaplace.ofScale(n, 1);
      RandomBits bits = keyedBits(70 + n);
      RandomBits reference = keyedBits(70 + n);
      for (int i = 0; i < 300; i++) {
        long expected;
        while (true) {
          long y = proposal.sample(reference);
          long deviation = Math.abs(Math.abs(y) - n);
          long q = deviation / n;
          long r = deviation % n;
          if (ExactBernoulli.expMinus(reference, q * q, 2) && ExactBernoulli.expMinus(reference, q * r, n)
              && ExactBernoulli.expMinusHalfSquareOfRatio(reference, r, n)) {
            expected = y;
            break;
          }
        }
        assertEquals(expected, gaussian.sample(bits), "sigma = " + n + ", draw " + i);
      }
    }
  }

  /** sigma^2 = 2^31 - 1: 2 a b t^2 needs all 64 bits, one past the long path; it is built and draws. */
  @Test
  void anAcceptanceDenominatorOfSixtyFourBitsTakesTheWidePath() {
    BigInteger a = BigInteger.valueOf(Integer.MAX_VALUE);
    DiscreteGaussian gaussian = DiscreteGaussian.ofSigmaSquared(a, BigInteger.ONE);
    assertEquals(46_341, gaussian.proposalScale());
    RandomBits bits = keyedBits(80);
    for (int i = 0; i < 100; i++) {
      assertTrue(Math.abs(gaussian.sample(bits)) < 20 * 46_341L); // 20 sigma: probability below 1e-80
    }
  }
}
