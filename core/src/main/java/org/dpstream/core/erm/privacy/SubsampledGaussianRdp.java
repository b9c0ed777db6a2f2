package org.dpstream.core.erm.privacy;

import java.util.Locale;
import java.util.Objects;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.Rounding;

/**
 * Renyi-DP accountant of the Poisson-subsampled Gaussian mechanism, the DP-SGD baseline's accountant.
 *
 * <p>Mechanism: each step includes every record independently with probability q, sums the records'
 * contributions (each of l2 norm at most C after clipping) and adds N(0, (z C)^2 I). Adjacency is
 * <b>add/remove one record</b> with sensitivity C, the relation under which this analysis is proved
 * (Mironov, Talwar and Zhang 2019, "Renyi Differential Privacy of the Sampled Gaussian Mechanism",
 * Section 3.2); DP-CD and DP-SkGD are stated for replace-one (sensitivity 2C/n). Replace-one (epsilon,
 * delta)-DP follows from add/remove (epsilon/2, delta/(1 + e^(epsilon/2)))-DP by group privacy, so a
 * caller wanting the stricter relation can calibrate at half the epsilon.
 *
 * <p>RDP at integer order alpha &gt;= 2 (exact for the sampled Gaussian, MTZ19 Section 3.2):
 * <pre>
 *   A_alpha = sum_{k=0..alpha} binom(alpha, k) (1-q)^(alpha-k) q^k exp((k^2 - k) / (2 z^2)),
 *   R(alpha) = ln(A_alpha) / (alpha - 1).
 * </pre>
 * Numerics: the binomial weights sum to 1 and the k = 0, 1 terms have exponent 0, so
 * A_alpha - 1 = sum_{k&gt;=2} binom(alpha, k) (1-q)^(alpha-k) q^k expm1((k^2-k)/(2 z^2)), a sum of
 * non-negative terms, evaluated by log-sum-exp with incremental log-binomials; ln A = log1p(A - 1). This
 * keeps full relative precision when q is small and A is 1 + 1e-7. The result is widened by a relative
 * 1e-9, which dominates the rounding error of the alpha-term sums (about alpha * 1e-16 relative).
 * Fractional orders are not evaluated: the integer orders 2..256 plus a few larger ones only lose a little
 * tightness, never validity, since every order gives a valid bound.
 *
 * <p>Composition over S steps multiplies R by S (Mironov 2017, Proposition 1); conversion to (epsilon,
 * delta) is {@link RdpConversion} (classic Mironov 2017 or the improved BBGHS20), minimised over orders.
 *
 * <p>Test value, worked by hand: q = 0.001, S = 30 000, delta = 1e-8, epsilon = 1 with the
 * classic conversion gives z of about 1.404.
 *
 * <p>Immutable.
 */
public final class SubsampledGaussianRdp {

  /** Relative widening of every RDP value, covering the error of the alpha-term sums. */
  static final double RDP_RELATIVE_SLACK = 1e-9;

  private static final int[] ORDERS = defaultOrders();
  private static final int MAX_BISECTIONS = 200;
  private static final double LARGE_EXPONENT = 30;

  private final double samplingRate;
  private final double noiseMultiplier;
  private final double[] rdpAtOrders;

  private SubsampledGaussianRdp(double samplingRate, double noiseMultiplier) {
    this.samplingRate = samplingRate;
    this.noiseMultiplier = noiseMultiplier;
    this.rdpAtOrders = new double[ORDERS.length];
    for (int i = 0; i < ORDERS.length; i++) {
      rdpAtOrders[i] = rdp(samplingRate, noiseMultiplier, ORDERS[i]);
    }
  }

  /**
   * The accountant of one step with sampling rate q and noise multiplier z.
   *
   * @param samplingRate q in (0, 1]
   * @param noiseMultiplier z &gt; 0, finite
   */
  public static SubsampledGaussianRdp of(double samplingRate, double noiseMultiplier) {
    if (!(samplingRate > 0 && samplingRate <= 1)) {
      throw new IllegalArgumentException("sampling rate must be in (0, 1], got " + samplingRate);
    }
    GaussianCompositionCalibration.requirePositiveFinite(noiseMultiplier, "noise multiplier");
    return new SubsampledGaussianRdp(samplingRate, noiseMultiplier);
  }

  /**
   * The smallest noise multiplier z (up to a relative 1e-6, rounded to the safe side: the returned z
   * passes) for which S steps are within the budget, by bisection on z.
   *
   * @param steps S &gt;= 1
   * @param budget epsilon &gt; 0 and 0 &lt; delta &lt; 1
   */
  public static SubsampledGaussianRdp calibrate(
      double samplingRate, long steps, PrivacyBudget budget, RdpConversion conversion) {
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(conversion, "conversion");
    requireSteps(steps);
    double target = budget.epsilon();
    double low = 1e-3;
    double high = 1.0;
    for (int i = 0; of(samplingRate, high).epsilon(steps, budget.delta(), conversion) > target; i++) {
      low = high;
      high *= 2;
      if (i > 60) {
        throw new IllegalStateException("no noise multiplier up to " + high + " meets " + budget);
      }
    }
    for (int i = 0; i < MAX_BISECTIONS && high - low > 1e-7 * high; i++) {
      double middle = low + (high - low) / 2;
      if (of(samplingRate, middle).epsilon(steps, budget.delta(), conversion) <= target) {
        high = middle;
      } else {
        low = middle;
      }
    }
    return of(samplingRate, high);
  }

  /**
   * R(alpha) of one step, rounded up.
   *
   * @param order integer alpha &gt;= 2
   */
  public static double rdp(double samplingRate, double noiseMultiplier, int order) {
    if (order < 2) {
      throw new IllegalArgumentException("integer RDP orders start at 2, got " + order);
    }
    double inverseTwoZSquared = 1 / (2 * noiseMultiplier * noiseMultiplier);
    if (samplingRate == 1) {
      return widen(order * inverseTwoZSquared);
    }
    double logQ = Math.log(samplingRate);
    double logOneMinusQ = Math.log1p(-samplingRate);
    // log of binom(order, k) (1-q)^(order-k) q^k expm1((k^2-k)/(2z^2)) for k = 2..order; two passes
    // (maximum, then sum) keep log-sum-exp allocation-free.
    double max = Double.NEGATIVE_INFINITY;
    double logBinomial = Math.log(order); // binom(order, 1)
    for (int k = 2; k <= order; k++) {
      logBinomial += Math.log(order - k + 1) - Math.log(k);
      max = Math.max(max, logTerm(order, k, logBinomial, logQ, logOneMinusQ, inverseTwoZSquared));
    }
    double sum = 0;
    logBinomial = Math.log(order);
    for (int k = 2; k <= order; k++) {
      logBinomial += Math.log(order - k + 1) - Math.log(k);
      sum += Math.exp(logTerm(order, k, logBinomial, logQ, logOneMinusQ, inverseTwoZSquared) - max);
    }
    double logAMinusOne = max + Math.log(sum);
    double logA = logAMinusOne < LARGE_EXPONENT
        ? Math.log1p(Math.exp(logAMinusOne))
        : logAMinusOne + Math.log1p(Math.exp(-logAMinusOne));
    return widen(logA / (order - 1));
  }

  private static double logTerm(int order, int k, double logBinomial, double logQ, double logOneMinusQ,
      double inverseTwoZSquared) {
    double exponent = (double) k * (k - 1) * inverseTwoZSquared;
    double logExpm1 = exponent > LARGE_EXPONENT
        ? exponent + Math.log1p(-Math.exp(-exponent))
        : Math.log(Math.expm1(exponent));
    return logBinomial + (order - k) * logOneMinusQ + k * logQ + logExpm1;
  }

  private static double widen(double value) {
    return Math.nextUp(value * (1 + RDP_RELATIVE_SLACK));
  }

  /** (epsilon, the order attaining it) after S steps. */
  public record EpsilonAtOrder(double epsilon, int order) {}

  /** The smallest epsilon over the evaluated orders after S composed steps, rounded up. */
  public EpsilonAtOrder epsilonAtBestOrder(long steps, double delta, RdpConversion conversion) {
    requireSteps(steps);
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in (0, 1), got " + delta);
    }
    double best = Double.POSITIVE_INFINITY;
    int bestOrder = ORDERS[0];
    for (int i = 0; i < ORDERS.length; i++) {
      double epsilon = Rounding.up(conversion.epsilon(Rounding.up(steps * rdpAtOrders[i]), ORDERS[i], delta));
      if (epsilon < best) {
        best = epsilon;
        bestOrder = ORDERS[i];
      }
    }
    return new EpsilonAtOrder(Math.max(best, Double.MIN_VALUE), bestOrder);
  }

  /** The smallest epsilon over the evaluated orders after S composed steps, rounded up. */
  public double epsilon(long steps, double delta, RdpConversion conversion) {
    return epsilonAtBestOrder(steps, delta, conversion).epsilon();
  }

  public double samplingRate() {
    return samplingRate;
  }

  public double noiseMultiplier() {
    return noiseMultiplier;
  }

  /** The integer orders this accountant evaluates: 2..256, then 320, 384, 512, 768, 1024. */
  public static int[] orders() {
    return ORDERS.clone();
  }

  /** E.g. {@code rdp-poisson-gaussian(q=0.001, z=1.404, S=30000, mironov17, order=...)}. */
  public String describe(long steps, double delta, RdpConversion conversion) {
    EpsilonAtOrder at = epsilonAtBestOrder(steps, delta, conversion);
    return String.format(Locale.ROOT,
        "rdp-poisson-gaussian(add/remove, q=%.6g, z=%.6g, S=%d, %s, eps=%.6g at order %d, delta=%.3g)",
        samplingRate, noiseMultiplier, steps, conversion.citation(), at.epsilon(), at.order(), delta);
  }

  private static void requireSteps(long steps) {
    if (steps < 1) {
      throw new IllegalArgumentException("need at least one step, got " + steps);
    }
  }

  private static int[] defaultOrders() {
    int[] large = {320, 384, 512, 768, 1024};
    int[] orders = new int[255 + large.length];
    for (int i = 0; i < 255; i++) {
      orders[i] = i + 2;
    }
    System.arraycopy(large, 0, orders, 255, large.length);
    return orders;
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "SubsampledGaussianRdp(q=%s, z=%s)", samplingRate, noiseMultiplier);
  }
}
