package org.dpstream.core.distributed;

import org.dpstream.core.privacy.noise.ConstantVectorNoise;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.noise.VectorNoise;

/**
 * The public parameters every node of one DP-DDA run shares (Algorithm 1's inputs).
 *
 * @param iota the node sampling ratio of Definition 2, in (0, 1]
 * @param sigma the per-coordinate standard deviation of the Gaussian noise on each subgradient, &gt;= 0
 *     (0 only for non-private reference runs); calibrate it with {@link DpDdaAccountant#calibrateSigma}
 * @param schedule a_t and gamma_t
 * @param prox the regulariser h and the dual-averaging step of eq. (6)
 * @param loss the hinge loss with its declared Lipschitz constant
 * @param recomputeInactiveX false (default, Algorithm 1 literally): an inactive node keeps x_i; true: it
 *     re-solves eq. (6) from its unchanged z_i with the new A_{t+1} and gamma_{t+1}, as the proof of Lemma
 *     4.5 assumes (the paper is inconsistent here). Either way privacy is unchanged: x is
 *     post-processing of z.
 */
public record DdaSettings(
    double iota, double sigma, StepSchedule schedule, DualAveragingProx prox, HingeLoss loss,
    boolean recomputeInactiveX) {

  public DdaSettings {
    if (!(iota > 0 && iota <= 1)) {
      throw new IllegalArgumentException("iota must be in (0, 1]: " + iota);
    }
    if (!(sigma >= 0) || Double.isInfinite(sigma)) {
      throw new IllegalArgumentException("sigma must be finite and >= 0: " + sigma);
    }
    java.util.Objects.requireNonNull(schedule, "schedule");
    java.util.Objects.requireNonNull(prox, "prox");
    java.util.Objects.requireNonNull(loss, "loss");
  }

  /**
   * The noise of every message: N(0, sigma^2 I_m), or, for sigma = 0, the explicit non-private mode's zeros
   * (NOT PRIVATE: reference runs and tests only).
   */
  public VectorNoise noise(int dimension) {
    return sigma > 0 ? IidVectorNoise.gaussian(dimension, sigma) : ConstantVectorNoise.zero(dimension);
  }

  /** Algorithm 1 as written: inactive nodes freeze x. */
  public static DdaSettings of(double iota, double sigma, StepSchedule schedule, DualAveragingProx prox, HingeLoss loss) {
    return new DdaSettings(iota, sigma, schedule, prox, loss, false);
  }
}
