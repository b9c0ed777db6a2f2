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
 * <p>A released Gram matrix is the exact one plus a symmetric matrix W whose upper-triangle entries are
 * independent N(0, s^2), s the worst per-coordinate noise standard deviation of a release in the epoch
 * (tree: sigma sqrt(h) for the h nodes a release sums at most; factorization: sigma ||C e_1||; epoch e
 * carries the e earlier epochs' final noise too, so s grows by sqrt(e + 1)). Then E ||W||_2 is about
 * 2 s sqrt(d) (semicircle law), and ||W||_2 is a (sqrt(2) s)-Lipschitz function of the Gaussian entries,
 * so P(||W||_2 &gt; E ||W||_2 + u s) &lt;= exp(-u^2 / 4). With u = 2 sqrt(ln(n / beta)), a union bound over
 * the n releases of an epoch keeps every released Gram matrix plus lambda I positive semi-definite with
 * probability at least 1 - beta:
 *
 * <pre>  lambda = s (2 sqrt(d) + 2 sqrt(ln(n / beta))),  beta = {@value DpLinearSpec#RIDGE_FAILURE_PROBABILITY}</pre>
 *
 * This is the shift Shariff and Sheffet (2018, section 4.2) add to the noisy Gram matrix, with the
 * constants of the Gaussian case spelled out. It is not tuned on any data.
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
    double tail = 2 * Math.sqrt(Math.log(releases / DpLinearSpec.RIDGE_FAILURE_PROBABILITY));
    return s * (2 * Math.sqrt(spec.dimension()) + tail);
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
