package org.dpstream.service.testing;

import org.dpstream.core.privacy.random.NoiseKey;

/** Fixed noise keys for tests, each byte a function of its index. Never use such keys outside tests. */
public final class TestNoiseKeys {

  private TestNoiseKeys() {}

  /** The 32-byte key whose byte i is {@code (byte) (step * i + offset)}. */
  public static NoiseKey arithmetic(int step, int offset) {
    byte[] material = new byte[32];
    for (int i = 0; i < material.length; i++) {
      material[i] = (byte) (step * i + offset);
    }
    return NoiseKey.ofBytes(material);
  }
}
