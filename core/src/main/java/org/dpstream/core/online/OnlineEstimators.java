package org.dpstream.core.online;

import java.io.DataInput;
import java.io.IOException;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKeyRing;

/**
 * Picks the algorithm the spec's geometry calls for: DP-POFW for p = 1, DP-TOFW for p > 1; on samples scaled
 * by the spec's feature bounds when it declares them ({@link ScaledOnlineEstimator}).
 */
public final class OnlineEstimators {

  private OnlineEstimators() {}

  public static OnlineEstimator start(OnlineModelSpec spec, KeyedNoiseSource source) {
    return scaledIfDeclared(spec, spec.p() == 1 ? DpPofw.start(spec, source) : DpTofw.start(spec, source));
  }

  /** Resumes a model from its saved state under its key, which must be {@code source}'s. */
  public static OnlineEstimator restore(OnlineModelSpec spec, DataInput in, KeyedNoiseSource source) throws IOException {
    return restore(spec, in, NoiseKeyRing.of(source));
  }

  /**
   * Resumes a model from its saved state under the key it is bound to, which must be in {@code keys}; fails loudly
   * if the state was written under another spec, and with {@link org.dpstream.core.state.StateBindingException} if
   * its key is not in the ring or its noise law is not this build's.
   */
  public static OnlineEstimator restore(OnlineModelSpec spec, DataInput in, NoiseKeyRing keys) throws IOException {
    return scaledIfDeclared(spec, spec.p() == 1 ? DpPofw.restore(spec, in, keys) : DpTofw.restore(spec, in, keys));
  }

  /**
   * The digest of the noise law a production estimator of {@code spec} binds its states to (a bandit whose arms are
   * such estimators binds its own state to its arms' law).
   */
  public static byte[] noiseLaw(OnlineModelSpec spec) {
    return spec.p() == 1 ? DpPofw.lawOf(spec) : DpTofw.lawOf(spec, PrefixSumPlan.choose(spec));
  }

  private static OnlineEstimator scaledIfDeclared(OnlineModelSpec spec, OnlineEstimator estimator) {
    return spec.featureScaling() == null ? estimator : new ScaledOnlineEstimator(estimator, spec.featureScaling());
  }
}
