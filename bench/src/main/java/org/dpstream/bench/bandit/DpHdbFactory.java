package org.dpstream.bench.bandit;

import org.dpstream.bandit.BanditPolicy;
import org.dpstream.bandit.env.EnvironmentBounds;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/**
 * The one place the bench constructs DP-HDB (Han et al., Algorithm 3; {@code org.dpstream.bandit.hdb},
 * written separately). Until that package is merged into this branch the algorithm is unavailable and
 * {@link #create} says so; merging it changes only this class.
 */
final class DpHdbFactory {

  private DpHdbFactory() {}

  /** Whether DP-HDB is in this build. */
  static boolean available() {
    return false;
  }

  /** Why it is not, for the command's error message. */
  static String unavailableReason() {
    return "DP-HDB (org.dpstream.bandit.hdb) is not in this build yet; run with --algorithms dpucb";
  }

  /**
   * DP-HDB for one run, with the environment's public bounds and the run's noise source.
   *
   * @throws UnsupportedOperationException while DP-HDB is not merged
   */
  static BanditPolicy create(BanditRunSpec run, EnvironmentBounds bounds, KeyedNoiseSource noise) {
    throw new UnsupportedOperationException(unavailableReason());
  }
}
