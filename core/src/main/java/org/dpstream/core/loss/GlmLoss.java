package org.dpstream.core.loss;

import java.util.Objects;
import org.dpstream.core.geometry.LpBall;

/**
 * The generalised-linear loss f(theta; x, y) = l(x' theta, y) for an {@link InverseLink} zeta with
 * matching loss l, so grad f = (zeta(x' theta) - y) x. The identity link gives the squared loss
 * (x' theta - y)^2 / 2 of the paper's regression experiments (Han et al. 2022, section 5), the logistic
 * link the logistic loss with labels in [0, 1] used by the GLM bandit (Algorithm 3).
 *
 * <p><b>Constants</b> over the domain {||theta||_p &lt;= r} for samples with ||x||_q &lt;= X and
 * |y| &lt;= Y (1/p + 1/q = 1):
 *
 * <ul>
 *   <li>Margin: |x' theta| &lt;= ||x||_q ||theta||_p &lt;= X r =: S by Hölder.
 *   <li>Lipschitz: ||grad f||_q = |zeta(x' theta) - y| ||x||_q &lt;= R(S, Y) X, where R(S, Y) =
 *       {@link InverseLink#residualBound} bounds the residual. Identity: L = (X r + Y) X.
 *       Logistic: L = sigma(X r) X &lt;= X. Both are attained: take theta with ||theta||_p = r
 *       aligned with x (Hölder equality, x' theta = X r) and y = -Y (identity) or y = 0
 *       (logistic).
 *   <li>Smoothness: grad f(a) - grad f(b) = (zeta(x' a) - zeta(x' b)) x, and by the mean value
 *       theorem |zeta(x' a) - zeta(x' b)| &lt;= k_zeta |x' (a - b)| &lt;= k_zeta X ||a - b||_p, so
 *       ||grad f(a) - grad f(b)||_q &lt;= k_zeta X^2 ||a - b||_p: beta = k_zeta X^2, i.e. X^2
 *       (identity, attained for a - b aligned with x) and X^2 / 4 (logistic, approached as a, b
 *       -&gt; 0 along x). Independent of r.
 * </ul>
 *
 * <p>Immutable; {@link #value} and {@link #gradient} are allocation-free.
 */
public final class GlmLoss implements SampleLoss {

  private static final GlmLoss SQUARED = new GlmLoss(CanonicalLink.IDENTITY);
  private static final GlmLoss LOGISTIC = new GlmLoss(CanonicalLink.LOGISTIC);

  private final InverseLink link;

  private GlmLoss(InverseLink link) {
    this.link = Objects.requireNonNull(link, "link");
  }

  /** The squared loss (x' theta - y)^2 / 2 (identity link). */
  public static GlmLoss squared() {
    return SQUARED;
  }

  /** The logistic loss log(1 + e^s) - y s, s = x' theta, labels y in [0, 1] (logistic link). */
  public static GlmLoss logistic() {
    return LOGISTIC;
  }

  /** The matching loss of an arbitrary inverse link. */
  public static GlmLoss of(InverseLink link) {
    return new GlmLoss(link);
  }

  public InverseLink link() {
    return link;
  }

  @Override
  public void requireLabel(double y) {
    link.requireLabel(y);
  }

  @Override
  public double value(double[] theta, double[] x, double y) {
    link.requireLabel(y);
    return link.matchingLoss(margin(theta, x), y);
  }

  @Override
  public void gradient(double[] theta, double[] x, double y, double[] out) {
    link.requireLabel(y);
    requireLength(out, theta.length, "out");
    double residual = link.mean(margin(theta, x)) - y;
    for (int i = 0; i < out.length; i++) {
      out[i] = residual * x[i];
    }
  }

  /** The margin x' theta. */
  public double margin(double[] theta, double[] x) {
    Objects.requireNonNull(theta, "theta");
    requireLength(x, theta.length, "x");
    double sum = 0;
    for (int i = 0; i < theta.length; i++) {
      sum += x[i] * theta[i];
    }
    return sum;
  }

  /** L = R(X r, Y) X; see the class comment for the derivation. */
  @Override
  public double lipschitzBound(LpBall domain, DataBounds data) {
    double featureBound = data.featureDualNorm();
    double marginBound = featureBound * domain.radius();
    return link.residualBound(marginBound, data.labelBound()) * featureBound;
  }

  /** beta = k_zeta X^2; see the class comment for the derivation. */
  @Override
  public double smoothnessBound(LpBall domain, DataBounds data) {
    Objects.requireNonNull(domain, "domain");
    double featureBound = data.featureDualNorm();
    return link.derivativeBound() * featureBound * featureBound;
  }

  private static void requireLength(double[] array, int expected, String name) {
    Objects.requireNonNull(array, name);
    if (array.length != expected) {
      throw new IllegalArgumentException(
          name + ".length must equal theta.length " + expected + ", got " + array.length);
    }
  }

  @Override
  public String toString() {
    return "GlmLoss(" + link + ")";
  }
}
