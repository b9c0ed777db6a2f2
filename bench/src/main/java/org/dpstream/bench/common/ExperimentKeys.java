package org.dpstream.bench.common;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;

/**
 * Noise keys of the experiments (ofw and bandit). The experiments use a <b>fixed, public experiment secret</b> so that
 * every run is reproducible bit for bit: the key of seed s is SHA-256(secret || s). That is fine for
 * synthetic data, where nobody's privacy is at stake, and it does not change the noise distribution.
 * It would be wrong for real data: anyone with this source could regenerate and subtract the noise.
 * Production keys come from the environment ({@link NoiseKey#fromEnvironment}), never from code.
 */
public final class ExperimentKeys {

  /** Public on purpose; see the class comment. */
  private static final byte[] EXPERIMENT_SECRET =
      "dpstream-bench/ofw/fixed-public-experiment-secret/v1".getBytes(StandardCharsets.US_ASCII);

  private ExperimentKeys() {}

  public static KeyedNoiseSource forSeed(long seed) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(EXPERIMENT_SECRET);
      sha.update(ByteBuffer.allocate(Long.BYTES).putLong(seed).array());
      NoiseKey key = NoiseKey.ofBytes(sha.digest());
      KeyedNoiseSource source = new KeyedNoiseSource(key);
      key.destroy();
      return source;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
