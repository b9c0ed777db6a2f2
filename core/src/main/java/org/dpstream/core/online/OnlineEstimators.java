package org.dpstream.core.online;

import java.io.DataInput;
import java.io.IOException;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/**
 * Picks the algorithm the spec's geometry calls for: DP-POFW for p = 1, DP-TOFW for p > 1; on samples scaled
 * by the spec's feature bounds when it declares them ({@link ScaledOnlineEstimator}).
 */
public final class OnlineEstimators {

  private OnlineEstimators() {}

  public static OnlineEstimator start(OnlineModelSpec spec, KeyedNoiseSource source) {
    return scaledIfDeclared(spec, spec.p() == 1 ? DpPofw.start(spec, source) : DpTofw.start(spec, source));
  }

  /** Resumes a model from its saved state; fails loudly if the state was written under another spec. */
  public static OnlineEstimator restore(OnlineModelSpec spec, DataInput in, KeyedNoiseSource source) throws IOException {
    return scaledIfDeclared(spec, spec.p() == 1 ? DpPofw.restore(spec, in, source) : DpTofw.restore(spec, in, source));
  }

  private static OnlineEstimator scaledIfDeclared(OnlineModelSpec spec, OnlineEstimator estimator) {
    return spec.featureScaling() == null ? estimator : new ScaledOnlineEstimator(estimator, spec.featureScaling());
  }
}
