package org.dpstream.bandit.hdb;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;

/**
 * Seeded randomness for tests. Commons RNG's RandomSource is not on the bandit module's test classpath
 * (and its pom is not ours to change), so simulations draw from a keyed AES counter-mode stream of
 * core, which is a {@link UniformRandomProvider} reproducible from the seed. Never use such keys
 * outside tests.
 */
public final class TestRandomness {

  private TestRandomness() {}

  /** A noise source whose key is a hash of the seed. */
  public static KeyedNoiseSource source(long seed) {
    try {
      byte[] material = MessageDigest.getInstance("SHA-256")
          .digest(("dpstream-bandit-test-key-" + seed).getBytes(StandardCharsets.UTF_8));
      return new KeyedNoiseSource(NoiseKey.ofBytes(material));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A long reproducible bit sequence for simulated contexts and rewards. */
  public static UniformRandomProvider bits(long seed) {
    return source(seed).forStream("simulation", "bandit-test").at(0, 0);
  }
}
