package org.dpstream.core.privacy.accounting;

/**
 * The regularity of the dual norm l_q on R^d (paper, Definition 2.2, Lemmas 3.2 and 3.3): a constant kappa
 * and a kappa_+-smooth norm ||.||_+ with ||x||_q^2 &lt;= ||x||_+^2 &lt;= (kappa / kappa_+) ||x||_q^2. The
 * generalized Gaussian mechanism (Lemma 2.1) samples noise with density proportional to
 * exp(-||z||_+^2 / (2 sigma^2)) and its variance is proportional to kappa.
 *
 * <p><b>Reading of Lemma 3.2 (2 &lt;= q &lt;= inf).</b> The paper writes kappa_q = min{q - 1, e^2 (ln d - 1)},
 * ||.||_+ = ||.||_{q+}, q+ = min{q - 1, ln d - 1}. Taken literally, q+ &lt; 1 for d &lt;= 7 (d = 5: 0.609),
 * which is not a norm, and for q = 3 it would pick l_2, whose equivalence constant with l_3 is d^{1/3}, not
 * 2. We read q+ as the <i>smoothness</i> kappa_+ of the smooth norm, which is what makes the lemma true: the
 * squared l_r norm is (r - 1)-smooth for r &gt;= 2 (Nemirovski's regularity of l_r), so the two
 * constructions behind the min are
 * <ul>
 *   <li>l_q itself: kappa_+ = kappa = q - 1 (exponent q);
 *   <li>l_r with r = ln d &lt;= q: kappa_+ = ln d - 1 and kappa = (ln d - 1) d^{2/r - 2/q} &lt;= e^2 (ln d - 1)
 *       (exponent ln d). This needs kappa_+ &gt;= 1, that is ln d &gt;= 2, d &gt;= 8.
 * </ul>
 * We return the paper's kappa whenever one of these realises it. When neither does (d &lt;= 7 with
 * q - 1 &gt; e^2 (ln d - 1), including q = inf), the paper's value has no valid construction; we then take
 * the smaller of l_q (kappa = q - 1) and the Euclidean embedding l_2 (kappa_+ = 1, kappa = d^{1 - 2/q}, the
 * construction of Lemma 3.3 used for q &gt;= 2), and say so in {@link #source()}. kappa is kept unrounded:
 * the calibrations that use it round the noise scale up with enough slack to cover its last-ulp error.
 *
 * <p><b>Lemma 3.3 (1 &lt;= q &lt; 2, p &gt; 2).</b> kappa_q = d^{1 - 2/p}, ||.||_+ = d^{1/2 - 1/p} ||.||_2 (a
 * rescaled Gaussian), kappa_+ = 1; followed as printed (it checks out: ||x||_q &lt;= d^{1/q - 1/2} ||x||_2).
 */
public final class NormRegularity {

  /** The kind of smooth norm ||.||_+ the noise sampler must use. */
  public enum SmoothNorm {
    /** ||x||_+ = ||x||_r with r = {@link #smoothNormExponent()}. */
    LP,
    /** ||x||_+ = c ||x||_2 with c = {@link #euclideanScale()}: Gaussian noise divided by c. */
    SCALED_L2
  }

  private static final double E_SQUARED = Math.exp(2.0);

  private final double dualExponent;
  private final int dimension;
  private final double kappa;
  private final double smoothness;
  private final SmoothNorm smoothNorm;
  private final double smoothNormExponent;
  private final double euclideanScale;
  private final String source;

  private NormRegularity(double dualExponent, int dimension, double kappa, double smoothness,
      SmoothNorm smoothNorm, double smoothNormExponent, double euclideanScale, String source) {
    this.dualExponent = dualExponent;
    this.dimension = dimension;
    this.kappa = kappa;
    this.smoothness = smoothness;
    this.smoothNorm = smoothNorm;
    this.smoothNormExponent = smoothNormExponent;
    this.euclideanScale = euclideanScale;
    this.source = source;
  }

  /** Regularity of l_q for the primal norm l_p, q = p / (p - 1); p in [1, inf]. */
  public static NormRegularity forPrimalExponent(double p, int dimension) {
    if (!(p >= 1)) {
      throw new IllegalArgumentException("p must be in [1, inf], got " + p);
    }
    double q = p == Double.POSITIVE_INFINITY ? 1.0 : p / (p - 1.0); // p = 1 gives q = inf
    return forDualExponent(q, dimension);
  }

  /** Regularity of l_q on R^d, q in [1, inf]. */
  public static NormRegularity forDualExponent(double q, int dimension) {
    if (!(q >= 1)) {
      throw new IllegalArgumentException("q must be in [1, inf], got " + q);
    }
    if (dimension < 1) {
      throw new IllegalArgumentException("dimension must be at least 1, got " + dimension);
    }
    return q >= 2 ? lemma32(q, dimension) : lemma33(q, dimension);
  }

  private static NormRegularity lemma32(double q, int d) {
    double logD = Math.log(d);
    double viaLq = q - 1.0; // +inf for q = inf
    double viaLogD = E_SQUARED * (logD - 1.0);
    double paperKappa = Math.min(viaLq, viaLogD);
    if (paperKappa == viaLq) {
      return new NormRegularity(q, d, viaLq, viaLq, SmoothNorm.LP, q, 1.0, "Lemma 3.2 via l_q");
    }
    if (logD >= 2.0) { // here viaLogD < q - 1, hence ln d < q: l_{ln d} dominates l_q
      return new NormRegularity(
          q, d, viaLogD, logD - 1.0, SmoothNorm.LP, logD, 1.0, "Lemma 3.2 via l_{ln d}");
    }
    double viaL2 = Math.pow(d, 1.0 - 2.0 / q);
    if (viaL2 < viaLq) {
      return new NormRegularity(q, d, viaL2, 1.0, SmoothNorm.SCALED_L2, 2.0, 1.0,
          "outside Lemma 3.2 (d <= 7): l_2 embedding, kappa = d^(1-2/q)");
    }
    return new NormRegularity(q, d, viaLq, viaLq, SmoothNorm.LP, q, 1.0,
        "outside Lemma 3.2 (d <= 7): l_q itself, kappa = q - 1");
  }

  private static NormRegularity lemma33(double q, int d) {
    double p = q == 1.0 ? Double.POSITIVE_INFINITY : q / (q - 1.0);
    double kappa = Math.pow(d, 1.0 - 2.0 / p);
    double scale = Math.pow(d, 0.5 - 1.0 / p);
    return new NormRegularity(q, d, kappa, 1.0, SmoothNorm.SCALED_L2, 2.0, scale, "Lemma 3.3");
  }

  /** q, the exponent of the dual norm in which sensitivities are measured. */
  public double dualExponent() {
    return dualExponent;
  }

  public int dimension() {
    return dimension;
  }

  /** kappa_q: the regularity constant entering Lemma 2.1 and eq. (3.2). */
  public double kappa() {
    return kappa;
  }

  /** kappa_+: the smoothness constant of ||.||_+ (the paper's "q+" in Lemma 3.2, on our reading). */
  public double smoothness() {
    return smoothness;
  }

  public SmoothNorm smoothNorm() {
    return smoothNorm;
  }

  /** r for {@link SmoothNorm#LP}: ||.||_+ = ||.||_r (r = min{q, ln d} under Lemma 3.2); 2 for scaled l_2. */
  public double smoothNormExponent() {
    return smoothNormExponent;
  }

  /** c for {@link SmoothNorm#SCALED_L2}: ||.||_+ = c ||.||_2 (d^{1/2 - 1/p} under Lemma 3.3); 1 for l_r. */
  public double euclideanScale() {
    return euclideanScale;
  }

  /** Which lemma and construction produced these constants. */
  public String source() {
    return source;
  }

  @Override
  public String toString() {
    return "NormRegularity[q=" + dualExponent + ", d=" + dimension + ", kappa=" + kappa + ", kappa+="
        + smoothness + ", smooth norm=" + smoothNorm + "(r=" + smoothNormExponent + ", scale="
        + euclideanScale + "), " + source + "]";
  }
}
