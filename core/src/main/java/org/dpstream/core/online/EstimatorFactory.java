package org.dpstream.core.online;

import java.io.DataInput;
import java.io.IOException;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKeyRing;

/**
 * Starts and restores online estimators. Production always uses {@link #PRIVATE}; the seam lets tests run
 * the service's or the bandit's logic with another estimator (a non-private arm, a model that fails on
 * purpose, a deliberately broken one the privacy audit must catch).
 */
public interface EstimatorFactory {

  OnlineEstimator start(OnlineModelSpec spec, KeyedNoiseSource source);

  /**
   * Resumes a saved state under the key it is bound to, which must be in {@code keys}.
   *
   * @throws org.dpstream.core.state.StateBindingException if its key is not in the ring or its noise law is not
   *     this build's
   */
  OnlineEstimator restore(OnlineModelSpec spec, DataInput in, NoiseKeyRing keys) throws IOException;

  /** The private estimators of {@link OnlineEstimators}: DP-TOFW for p > 1, DP-POFW for p = 1. */
  EstimatorFactory PRIVATE = new EstimatorFactory() {
    @Override
    public OnlineEstimator start(OnlineModelSpec spec, KeyedNoiseSource source) {
      return OnlineEstimators.start(spec, source);
    }

    @Override
    public OnlineEstimator restore(OnlineModelSpec spec, DataInput in, NoiseKeyRing keys) throws IOException {
      return OnlineEstimators.restore(spec, in, keys);
    }
  };
}
