package org.dpstream.service.noise;

import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.service.release.PublishedReleases;

/**
 * What the processors that own states need to bind them to their noise: the key ring, the public record of what was
 * published, and the instance's registries of refused states and of the keys states are bound to.
 *
 * @param keys the primary key and the retired ones
 * @param published dp.releases as read at start-up
 * @param refused the refused states, for /ready
 * @param bound the key of every stored state, for the gauge
 */
public record NoiseContext(NoiseKeyRing keys, PublishedReleases published, RefusedStates refused, BoundKeys bound) {

  /** One key, nothing published (tools and tests without a broker). */
  public static NoiseContext of(KeyedNoiseSource key) {
    return of(NoiseKeyRing.of(key));
  }

  /** These keys, nothing published. */
  public static NoiseContext of(NoiseKeyRing keys) {
    return new NoiseContext(keys, PublishedReleases.empty(), new RefusedStates(), new BoundKeys());
  }
}
