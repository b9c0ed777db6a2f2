package org.dpstream.bandit.linear;

import org.dpstream.core.online.PrefixSumPlan;
import org.dpstream.core.privacy.accounting.GaussianTreeCalibration;
import org.dpstream.core.privacy.accounting.PrivacyCalibration;
import org.dpstream.core.privacy.factorization.PrefixSumSquareRoot;
import org.dpstream.core.privacy.factorization.SqrtFactorizationCalibration;

/**
 * The ridge weight lambda of DP-Linear, matched to the noise of the released Gram matrix: a public
 * function of the spec and the epoch, never of the data.
 *
 * <p>A released Gram matrix is the exact one plus a symmetric matrix W read back from svec: independent
 * N(0, s^2) on the diagonal and N(0, s^2 / 2) off it ({@link SufficientStatistics}), s the worst per-coordinate
 * noise standard deviation of a release in the epoch (tree: sigma sqrt(h) for the h nodes a release sums at most;
 * factorization: sigma ||C e_1||; epoch e carries the e earlier epochs' final noise too, so s grows by
 * sqrt(e + 1)). That is s / sqrt(2) times a GOE matrix, so E lambda_max(-W) &lt;= s sqrt(2 d) (Sudakov-Fernique:
 * for unit u, v, E (u'Wu - v'Wv)^2 = s^2 ||u u' - v v'||_F^2 &lt;= 2 s^2 ||u - v||^2, the increments of
 * sqrt(2) s g'u), and lambda_max(-W) is s-Lipschitz in the standard Gaussian coordinates of svec(W) (svec is an
 * isometry), so P(lambda_max(-W) &gt; s sqrt(2 d) + u s) &lt;= exp(-u^2 / 2). With u = sqrt(2 ln(n / beta)), a union
 * bound over the n releases of an epoch keeps every released Gram matrix plus lambda I positive semi-definite
 * with probability at least 1 - beta:
 *
 * <pre>  lambda = s (sqrt(2 d) + sqrt(2 ln(n / beta))),  beta = {@value DpLinearSpec#RIDGE_FAILURE_PROBABILITY}</pre>
 *
 * This is the shift Shariff and Sheffet (2018, section 4.2) add to the noisy Gram matrix, with the
 * constants of the Gaussian case spelled out (only the lower tail of W's spectrum can make the matrix
 * indefinite). It is not tuned on any data.
 */
public final class RidgeWeight {

  private RidgeWeight() {}

  /** lambda for the releases of epoch {@code epoch} (0-based). */
  public static double of(DpLinearSpec spec, PrefixSumPlan plan, long epoch) {
    if (epoch < 0) {
      throw new IllegalArgumentException("epoch must be non-negative: " + epoch);
    }
    long releases = spec.releasesPerEpoch();
    double s = releaseNoiseStd(plan.calibration(), releases) * Math.sqrt(epoch + 1.0);
    double tail = Math.sqrt(2 * Math.log(releases / DpLinearSpec.RIDGE_FAILURE_PROBABILITY));
    return s * (Math.sqrt(2.0 * spec.dimension()) + tail);
  }

  /** The largest per-coordinate standard deviation of the noise of one release within an epoch of n leaves. */
  static double releaseNoiseStd(PrivacyCalibration calibration, long releases) {
    if (calibration instanceof GaussianTreeCalibration tree) {
      return tree.nodeSigma() * Math.sqrt(tree.tree().depth());
    }
    if (calibration instanceof SqrtFactorizationCalibration factorization) {
      return factorization.noiseSigma() * Math.sqrt(PrefixSumSquareRoot.squaredColumnNorm(releases));
    }
    throw new IllegalArgumentException("accountant: dp-linear needs the release noise of '" + calibration.accountant()
        + "' to set its ridge weight; use zcdp or factorization");
  }
}
