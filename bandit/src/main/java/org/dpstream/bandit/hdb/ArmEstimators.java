package org.dpstream.bandit.hdb;

import java.io.DataInput;
import java.io.IOException;
import org.dpstream.core.online.OnlineEstimator;
import org.dpstream.core.online.OnlineEstimators;
import org.dpstream.core.online.OnlineModelSpec;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/**
 * Makes the per-arm estimators. Production always uses {@link #PRIVATE} (DP-POFW); the seam is
 * package-private so tests can run the bandit logic with a non-private Frank-Wolfe arm (DP-POFW has no
 * noise-off switch, and its calibration refuses the very large epsilons that would make noise
 * negligible) or with a deliberately broken arm the privacy audit must catch.
 */
interface ArmEstimators {

  OnlineEstimator start(OnlineModelSpec spec, KeyedNoiseSource source);

  OnlineEstimator restore(OnlineModelSpec spec, DataInput in, KeyedNoiseSource source) throws IOException;

  /** DP-POFW (Algorithm 2) for every arm: the arm specs are l1 balls. */
  ArmEstimators PRIVATE = new ArmEstimators() {
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
