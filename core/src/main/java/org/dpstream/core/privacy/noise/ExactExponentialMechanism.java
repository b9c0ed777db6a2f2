package org.dpstream.core.privacy.noise;

import java.math.BigInteger;
import java.util.Objects;

/**
 * The exponential mechanism sampled exactly: index v with probability proportional to exp(lambda u_v), for
 * integer utilities u_v (e.g. scores in lattice units) and lambda = epsilon / (2 Delta) given as a double,
 * which is a dyadic rational m 2^e, so every exponent lambda (u_max - u_v) is an exact rational.
 *
 * <p>Rejection: v uniform among the candidates, kept with probability exp(-lambda (u_max - u_v)) (an exact
 * {@link ExactBernoulli#expMinus} draw), else drawn again. A candidate's chance per round is (1/k) exp(lambda
 * (u_v - u_max)), proportional to exp(lambda u_v): the output law is exactly the mechanism's. Expected rounds:
 * k / sum_v exp(-lambda (u_max - u_v)), at most k. No floating-point value decides the outcome.
 */
public final class ExactExponentialMechanism {

  private ExactExponentialMechanism() {}

  /**
   * One index of {@code utilities}.
   *
   * @throws IllegalArgumentException if there are no utilities or lambda is not finite and &gt; 0
   */
  public static int sample(long[] utilities, double lambda, RandomBits bits) {
    Objects.requireNonNull(utilities, "utilities");
    Objects.requireNonNull(bits, "bits");
    if (utilities.length == 0) {
      throw new IllegalArgumentException("the exponential mechanism needs at least one candidate");
    }
    if (!(lambda > 0 && lambda <= Double.MAX_VALUE)) {
      throw new IllegalArgumentException("lambda = epsilon / (2 sensitivity) must be finite and > 0, got " + lambda);
    }
    long max = Long.MIN_VALUE;
    for (long u : utilities) {
      max = Math.max(max, u);
    }
    // lambda = mantissa 2^exponent exactly (any finite positive double, subnormals included).
    int exponent = Math.max(Math.getExponent(lambda), Double.MIN_EXPONENT) - 52;
    BigInteger mantissa = BigInteger.valueOf((long) Math.scalb(lambda, -exponent));
    BigInteger denominator = exponent >= 0 ? BigInteger.ONE : BigInteger.ONE.shiftLeft(-exponent);
    BigInteger scale = exponent >= 0 ? mantissa.shiftLeft(exponent) : mantissa;
    BigInteger top = BigInteger.valueOf(max);
    while (true) {
      int v = (int) bits.uniformBelow(utilities.length);
      BigInteger gap = top.subtract(BigInteger.valueOf(utilities[v])); // >= 0, exact for any longs
      if (gap.signum() == 0 || ExactBernoulli.expMinus(bits, gap.multiply(scale), denominator)) {
        return v;
      }
    }
  }
}
