package org.dpstream.service.bandit;

import java.io.IOException;
import org.dpstream.bandit.BanditSpec;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKeyRing;

/**
 * Starts and resumes the bandits the topology serves. Production always uses {@link #PRIVATE}; the seam lets tests
 * run the topology with another policy (a deliberately undercalibrated one the one-run audit must catch), as
 * {@link org.dpstream.core.online.EstimatorFactory} does for the models.
 */
interface BanditPolicies {

  ServedBandit start(BanditSpec spec, KeyedNoiseSource noise);

  /**
   * Resumes a stored bandit under the key it is bound to, which must be in {@code keys}.
   *
   * @throws org.dpstream.core.state.StateBindingException if its key is not in the ring or its law not this build's
   */
  ServedBandit restore(BanditSpec spec, byte[] state, NoiseKeyRing keys) throws IOException;

  /** The private policies of the config: DP-HDB and DP-Linear. */
  BanditPolicies PRIVATE = new BanditPolicies() {
    @Override
    public ServedBandit start(BanditSpec spec, KeyedNoiseSource noise) {
      return ServedBandit.start(spec, noise);
    }

    @Override
    public ServedBandit restore(BanditSpec spec, byte[] state, NoiseKeyRing keys) throws IOException {
      return ServedBandit.restore(spec, state, keys);
    }
  };
}
