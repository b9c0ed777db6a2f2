package org.dpstream.service.bandit;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import org.dpstream.bandit.BanditSpec;
import org.dpstream.bandit.PrivateBandit;
import org.dpstream.bandit.hdb.DpHdbPolicy;
import org.dpstream.bandit.hdb.DpHdbSpec;
import org.dpstream.bandit.linear.DpLinearPolicy;
import org.dpstream.bandit.linear.DpLinearSpec;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.schemas.ModelRelease;

/**
 * A bandit policy as the bandit service runs it (config {@code policy: dp-hdb | dp-linear}): the policy, which
 * decides, learns, accounts and persists, and when and how its arms are published.
 *
 * @param policy the private policy
 * @param releasePeriod rounds between publications given the configured {@code releaseEvery}: DP-HDB's
 *     releaseEvery, DP-Linear's refresh period (it publishes each of its statistics releases)
 * @param roundReleases what a release round publishes given the configured {@code releaseEvery}: every arm's
 *     release (and, for DP-HDB, its forced-sampling estimators when they are due, {@link BanditReleases#ofRound})
 * @param step the step its releases carry now: DP-HDB's rounds, DP-Linear's statistics releases
 */
record ServedBandit(PrivateBandit policy, IntFunction<Integer> releasePeriod,
    IntFunction<List<ModelRelease>> roundReleases, LongSupplier step) {

  static ServedBandit start(BanditSpec spec, KeyedNoiseSource noise) {
    if (spec instanceof DpHdbSpec hdb) {
      return of(DpHdbPolicy.start(hdb, noise));
    }
    if (spec instanceof DpLinearSpec linear) {
      return of(DpLinearPolicy.start(linear, noise));
    }
    throw new IllegalArgumentException("policy: unknown bandit policy " + spec.policyName());
  }

  /**
   * Resumes a stored bandit under the key it is bound to, which must be in {@code keys}.
   *
   * @throws org.dpstream.core.state.StateBindingException if its key is not in the ring or its law not this build's
   */
  static ServedBandit restore(BanditSpec spec, byte[] state, NoiseKeyRing keys) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(state));
    if (spec instanceof DpHdbSpec hdb) {
      return of(DpHdbPolicy.restore(hdb, in, keys));
    }
    if (spec instanceof DpLinearSpec linear) {
      return of(DpLinearPolicy.restore(linear, in, keys));
    }
    throw new IllegalArgumentException("policy: unknown bandit policy " + spec.policyName());
  }

  private static ServedBandit of(DpHdbPolicy hdb) {
    return new ServedBandit(hdb, releaseEvery -> releaseEvery, releaseEvery -> BanditReleases.ofRound(hdb, releaseEvery),
        hdb::rounds);
  }

  static ServedBandit of(DpLinearPolicy linear) {
    return new ServedBandit(linear, releaseEvery -> linear.spec().refreshEvery(), releaseEvery -> {
      List<ModelRelease> releases = new ArrayList<>(linear.arms());
      for (int arm = 0; arm < linear.arms(); arm++) {
        releases.add(BanditReleases.of(linear, arm));
      }
      return releases;
    }, linear::step);
  }

  /** The releases to publish after the round just learnt, or none. */
  List<ModelRelease> releasesAfterRound(int releaseEvery) {
    return policy.rounds() % releasePeriod.apply(releaseEvery) == 0 ? roundReleases.apply(releaseEvery) : List.of();
  }
}
