package org.dpstream.core.privacy.testing;

import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.privacy.random.NoiseKey;

/** Noise keys for tests, reproducible from a seed. Never use such keys outside tests. */
public final class TestKeys {

  private TestKeys() {}

  public static NoiseKey seeded(long seed) {
    byte[] material = new byte[NoiseKey.MINIMUM_BYTES];
    RandomSource.SPLIT_MIX_64.create(seed).nextBytes(material);
    return NoiseKey.ofBytes(material);
  }
}
