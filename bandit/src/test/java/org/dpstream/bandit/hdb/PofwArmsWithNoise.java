package org.dpstream.bandit.hdb;

import java.io.DataInput;
import java.util.function.IntFunction;
import org.dpstream.core.online.DpPofw;
import org.dpstream.core.online.EstimatorFactory;
import org.dpstream.core.online.NoiseChoice;
import org.dpstream.core.online.OnlineEstimator;
import org.dpstream.core.online.OnlineModelSpec;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.noise.VectorNoise;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKeyRing;

/**
 * Test arms: DP-POFW itself on the continuous path (Gumbel scores; the arms' default is the fixed-point draw, which
 * has no noise vector to swap), with the unit noise of its vertex scores swapped through its seam. The discrete
 * path's own negative control is DpPofwAuditTest's miscalibrated lambda.
 */
final class PofwArmsWithNoise {

  /**
   * Frank-Wolfe with a millionth of the calibrated noise (NOT PRIVATE), for the regret test: the noise decides
   * only ties, as at d = 0 before an arm's first real sample, where DP-POFW picks a random vertex. (With
   * {@link org.dpstream.core.privacy.noise.ConstantVectorNoise#zero} every tie would pick +r e_1, and idle arms
   * would drift to that vertex during the warm-up.)
   */
  static final EstimatorFactory NEARLY_NO_NOISE = factory(d -> IidVectorNoise.laplace(2 * d, 1e-6));

  /** Noise a thousandth of the calibrated one: the privacy audit must catch it. */
  static final EstimatorFactory A_THOUSANDTH_OF_THE_NOISE = factory(d -> IidVectorNoise.laplace(2 * d, 1e-3));

  private PofwArmsWithNoise() {}

  private static EstimatorFactory factory(IntFunction<VectorNoise> unitNoise) {
    return new EstimatorFactory() {
      @Override
      public OnlineEstimator start(OnlineModelSpec spec, KeyedNoiseSource source) {
        OnlineModelSpec continuous = spec.withNoise(NoiseChoice.CONTINUOUS);
        return DpPofw.startWithUnitNoise(continuous, unitNoise.apply(spec.dimension()), source);
      }

      @Override
      public OnlineEstimator restore(OnlineModelSpec spec, DataInput in, NoiseKeyRing keys) {
        throw new UnsupportedOperationException("test arms are not restored");
      }
    };
  }
}
