package org.dpstream.core.online;

import java.io.DataInput;
import java.io.IOException;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/**
 * Starts and restores online estimators. Production always uses {@link #PRIVATE}; the seam lets tests run
 * the service's or the bandit's logic with another estimator (a non-private arm, a model that fails on
 * purpose, a deliberately broken one the privacy audit must catch).
 */
public interface EstimatorFactory {

  OnlineEstimator start(OnlineModelSpec spec, KeyedNoiseSource source);

  OnlineEstimator restore(OnlineModelSpec spec, DataInput in, KeyedNoiseSource source) throws IOException;

  /** The private estimators of {@link OnlineEstimators}: DP-TOFW for p > 1, DP-POFW for p = 1. */
  EstimatorFactory PRIVATE = new EstimatorFactory() {
    @Override
    public OnlineEstimator start(OnlineModelSpec spec, KeyedNoiseSource source) {
      return OnlineEstimators.start(spec, source);
    }

    @Override
    public OnlineEstimator restore(OnlineModelSpec spec, DataInput in, KeyedNoiseSource source) throws IOException {
      return OnlineEstimators.restore(spec, in, source);
    }
  };
}
