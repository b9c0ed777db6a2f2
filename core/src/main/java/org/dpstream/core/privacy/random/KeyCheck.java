package org.dpstream.core.privacy.random;

import java.util.HexFormat;

/**
 * The check value of a noise key: the first 8 bytes of HMAC-SHA256(key, {@value KeyedNoiseSource#KEY_CHECK_LABEL}),
 * big-endian. A saved state carries it to name the key its noise was drawn under, messages and metrics print it
 * as 16 hex digits. It reveals nothing of the key: HMAC-SHA256 is a PRF, so its output on a fixed public input
 * is indistinguishable from random to anyone without the key, and it is a different input from every stream
 * key's derivation, so it says nothing about any stream either.
 *
 * @param value the 64 bits
 */
public record KeyCheck(long value) {

  /** The check written as 16 lowercase hex digits, e.g. in a message that names the key a state is bound to. */
  public String hex() {
    return HexFormat.of().toHexDigits(value);
  }

  /**
   * Reads {@link #hex()}.
   *
   * @throws IllegalArgumentException unless the text is 16 hex digits
   */
  public static KeyCheck parse(String hex) {
    if (hex == null || hex.length() != 16) {
      throw new IllegalArgumentException("a key check is 16 hex digits, got " + hex);
    }
    return new KeyCheck(HexFormat.fromHexDigitsToLong(hex));
  }

  @Override
  public String toString() {
    return hex();
  }
}
