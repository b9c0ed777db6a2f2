package org.dpstream.core.privacy.random;

import org.apache.commons.rng.UniformRandomProvider;

/**
 * Sees every noise coordinate a mechanism draws (the tests' sensitivity recorders: the sequence of draws must not
 * depend on the data). Package-private, and null in every source the product builds, so it is no seam for key
 * material: it sees the stream's public coordinates and the bits' provider, never the key.
 */
interface NoiseDrawObserver {

  /**
   * Called once for each {@link NoiseStream#at} call, in order.
   *
   * @param stream the stream's purpose, stream id, scope, part and kind
   * @return the provider the mechanism draws from: {@code bits}, or a wrapper of it that counts the words drawn
   */
  UniformRandomProvider drawn(String stream, long epoch, long index, UniformRandomProvider bits);
}
