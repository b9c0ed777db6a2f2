package org.dpstream.core.privacy.noise;

import java.math.BigInteger;
import java.util.Objects;

/**
 * The discrete Gaussian N_Z(0, sigma^2) on the integers: P[X = x] proportional to exp(-x^2 / (2
 * sigma^2)), with sigma^2 = a / b a positive rational.
 *
 * <p>Exact: Algorithm 3 of Canonne, Kamath and Steinke 2020 ("The discrete Gaussian for differential
 * privacy"), rejection from the {@link DiscreteLaplace} of scale t = floor(sigma) + 1 (t = sigma for a
 * whole sigma), accepting Y with probability exp(-(|Y| - sigma^2 / t)^2 / (2 sigma^2)). Every decision is an integer comparison
 * ({@link ExactBernoulli}); the only input is the caller's bit source, so a keyed source replays a draw
 * bit for bit. The parameter is kept as the exact rational; no floating-point value is computed on any
 * path that decides an output.
 *
 * <p>Hand-written: no maintained Java library on Maven Central offers an exact discrete Gaussian driven
 * by a caller's bit source (Google's differentialprivacy artifact approximates its Gaussian by a
 * binomial drawn from its own SecureRandom; Commons RNG and Commons Statistics have none).
 *
 * <p>Immutable; cheap arithmetic stays in {@code long} when the numbers fit, else {@link BigInteger}.
 */
public final class DiscreteGaussian implements ExactIntegerSampler {

  /** Largest sigma, so that the proposal's scale t = floor(sigma) + 1 stays within {@link DiscreteLaplace}. */
  public static final long MAX_SIGMA = DiscreteLaplace.MAX_SCALE_NUMERATOR - 1;

  private static final long SMALL_DEVIATION = 1L << 31;

  private final BigInteger sigmaSquaredNumerator;
  private final BigInteger sigmaSquaredDenominator;
  private final DiscreteLaplace proposal;
  /** b t: |Y| - a / (b t) = (|Y| b t - a) / (b t). */
  private final BigInteger denominatorTimesScale;
  /** 2 a b t^2: the acceptance exponent is (|Y| b t - a)^2 / (2 a b t^2). */
  private final BigInteger acceptanceDenominator;
  // The same numbers as longs when all fit (acceptanceDenominator < 2^63), for the common small case.
  private final boolean fitsInLong;
  private final long numeratorLong;
  private final long denominatorTimesScaleLong;
  private final long acceptanceDenominatorLong;
  /** sigma when sigma^2 is the square of an integer (then t = sigma), else 0. */
  private final long integerSigma;

  private DiscreteGaussian(BigInteger numerator, BigInteger denominator) {
    BigInteger gcd = numerator.gcd(denominator);
    this.sigmaSquaredNumerator = numerator.divide(gcd);
    this.sigmaSquaredDenominator = denominator.divide(gcd);
    // floor(sqrt(a / b)) = floor(sqrt(floor(a / b))) for a / b >= 0.
    BigInteger floorSigma = sigmaSquaredNumerator.divide(sigmaSquaredDenominator).sqrt();
    if (floorSigma.compareTo(BigInteger.valueOf(MAX_SIGMA)) >= 0) {
      throw new IllegalArgumentException("discrete Gaussian sigma must be below 2^53 - 1, got sigma^2 = "
          + sigmaSquaredNumerator + "/" + sigmaSquaredDenominator);
    }
    boolean squareOfInteger = sigmaSquaredDenominator.equals(BigInteger.ONE)
        && floorSigma.multiply(floorSigma).equals(sigmaSquaredNumerator);
    this.integerSigma = squareOfInteger ? floorSigma.longValueExact() : 0;
    // Any scale t > 0 makes Algorithm 3 exact (the acceptance cancels the Laplace's exp(-|y| / t)); CKS20
    // take floor(sigma) + 1, an integer sigma takes t = sigma, so that sigma^2 / t is the integer sigma.
    long t = squareOfInteger ? integerSigma : floorSigma.longValueExact() + 1;
    this.proposal = DiscreteLaplace.ofScale(t, 1);
    BigInteger scale = BigInteger.valueOf(t);
    this.denominatorTimesScale = sigmaSquaredDenominator.multiply(scale);
    this.acceptanceDenominator =
        sigmaSquaredNumerator.multiply(denominatorTimesScale).multiply(scale).shiftLeft(1);
    this.fitsInLong = acceptanceDenominator.bitLength() < Long.SIZE;
    this.numeratorLong = fitsInLong ? sigmaSquaredNumerator.longValueExact() : 0;
    this.denominatorTimesScaleLong = fitsInLong ? denominatorTimesScale.longValueExact() : 0;
    this.acceptanceDenominatorLong = fitsInLong ? acceptanceDenominator.longValueExact() : 0;
  }

  /**
   * N_Z(0, a / b).
   *
   * @throws IllegalArgumentException unless a &gt; 0, b &gt; 0 and sigma &lt; {@link #MAX_SIGMA}
   */
  public static DiscreteGaussian ofSigmaSquared(BigInteger numerator, BigInteger denominator) {
    Objects.requireNonNull(numerator, "numerator");
    Objects.requireNonNull(denominator, "denominator");
    if (numerator.signum() <= 0 || denominator.signum() <= 0) {
      throw new IllegalArgumentException(
          "discrete Gaussian sigma^2 must be a positive fraction, got " + numerator + "/" + denominator);
    }
    return new DiscreteGaussian(numerator, denominator);
  }

  /**
   * N_Z(0, sigma^2) with sigma^2 the exact square of the double {@code sigma} (a double is a dyadic
   * rational m 2^e, so sigma^2 = m^2 2^(2e) with no rounding).
   *
   * @throws IllegalArgumentException unless sigma is finite, &gt; 0 and below {@link #MAX_SIGMA}
   */
  public static DiscreteGaussian ofSigma(double sigma) {
    if (!(sigma > 0 && sigma < MAX_SIGMA)) {
      throw new IllegalArgumentException("discrete Gaussian sigma must be finite, > 0 and < 2^53 - 1, got " + sigma);
    }
    // sigma = mantissa 2^exponent exactly: scale the double to an integer (exact for any finite double).
    int exponent = Math.max(Math.getExponent(sigma), Double.MIN_EXPONENT) - 52; // subnormals share 2^-1074
    long mantissa = (long) Math.scalb(sigma, -exponent);
    int trailing = Long.numberOfTrailingZeros(mantissa);
    mantissa >>= trailing;
    exponent += trailing;
    BigInteger squared = BigInteger.valueOf(mantissa).pow(2);
    return exponent >= 0
        ? ofSigmaSquared(squared.shiftLeft(2 * exponent), BigInteger.ONE)
        : ofSigmaSquared(squared, BigInteger.ONE.shiftLeft(-2 * exponent));
  }

  /**
   * N_Z(0, sigma^2) for a whole number sigma: the fast case, whose acceptance test needs only {@code long}
   * arithmetic at any sigma below {@link #MAX_SIGMA}.
   *
   * @throws IllegalArgumentException unless 1 &lt;= sigma &lt; {@link #MAX_SIGMA}
   */
  public static DiscreteGaussian ofIntegerSigma(long sigma) {
    if (sigma < 1 || sigma >= MAX_SIGMA) {
      throw new IllegalArgumentException("discrete Gaussian sigma must be in [1, 2^53 - 1), got " + sigma);
    }
    return ofSigmaSquared(BigInteger.valueOf(sigma).pow(2), BigInteger.ONE);
  }

  /** a of sigma^2 = a / b, in lowest terms. */
  public BigInteger sigmaSquaredNumerator() {
    return sigmaSquaredNumerator;
  }

  /** b of sigma^2 = a / b, in lowest terms. */
  public BigInteger sigmaSquaredDenominator() {
    return sigmaSquaredDenominator;
  }

  /** The scale t of the discrete Laplace proposal: sigma if sigma is a whole number, else floor(sigma) + 1. */
  public long proposalScale() {
    return proposal.scaleNumerator();
  }

  /** One draw. */
  @Override
  public long sample(RandomBits bits) {
    Objects.requireNonNull(bits, "bits");
    while (true) {
      long y = proposal.sample(bits);
      if (accept(bits, Math.abs(y))) {
        return y;
      }
    }
  }

  /** Bernoulli(exp(-(|Y| b t - a)^2 / (2 a b t^2))). */
  private boolean accept(RandomBits bits, long magnitude) {
    if (integerSigma != 0) {
      return acceptWithIntegerSigma(bits, magnitude);
    }
    if (fitsInLong) {
      long product = magnitude * denominatorTimesScaleLong;
      if (Math.multiplyHigh(magnitude, denominatorTimesScaleLong) == 0 && product >= 0) {
        long deviation = product - numeratorLong; // both non-negative: no overflow
        if (Math.abs(deviation) < SMALL_DEVIATION) {
          return ExactBernoulli.expMinus(bits, deviation * deviation, acceptanceDenominatorLong);
        }
      }
    }
    BigInteger deviation = BigInteger.valueOf(magnitude).multiply(denominatorTimesScale).subtract(sigmaSquaredNumerator);
    return ExactBernoulli.expMinus(bits, deviation.multiply(deviation), acceptanceDenominator);
  }

  /**
   * With t = sigma = n the exponent is (|Y| - n)^2 / (2 n^2). Write | |Y| - n | = q n + r with 0 <= r &lt; n:
   * the exponent is q^2 / 2 + q r / n + r^2 / (2 n^2), three non-negative terms, so exp(-exponent) is the
   * product of three independent Bernoulli(exp(-term)) draws, each with parameters that fit a long (q r
   * &lt;= | |Y| - n |). The last term is below 1/2 and is drawn as (1/2) (r/n) (r/n), never forming n^2.
   */
  private boolean acceptWithIntegerSigma(RandomBits bits, long magnitude) {
    long n = integerSigma;
    long deviation = Math.abs(magnitude - n); // magnitude >= 0 and n > 0: no overflow
    long q = deviation < n ? 0 : deviation / n; // |Y| < 2 n most of the time: no division
    long r = deviation - q * n;
    boolean first = q < SMALL_DEVIATION
        ? ExactBernoulli.expMinus(bits, q * q, 2)
        : ExactBernoulli.expMinus(bits, BigInteger.valueOf(q).pow(2), BigInteger.TWO);
    return first
        && ExactBernoulli.expMinus(bits, q * r, n)
        && ExactBernoulli.expMinusHalfSquareOfRatio(bits, r, n);
  }

  @Override
  public String toString() {
    return "discrete-gaussian(sigma^2=" + sigmaSquaredNumerator + "/" + sigmaSquaredDenominator + ")";
  }
}
