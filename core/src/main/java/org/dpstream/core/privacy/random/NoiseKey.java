package org.dpstream.core.privacy.random;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;

/**
 * The secret from which all privacy noise is derived.
 *
 * <p>Contract: the key material never leaves this object except into the MAC of {@link
 * KeyedNoiseSource}. It is not in {@link #toString()}, in any exception message (decoder errors are
 * replaced, not wrapped, because they quote the offending characters), and it is not {@code
 * Serializable}. It is read from the environment or a file, never from the command line, where it
 * would show in process listings and shell history.
 */
public final class NoiseKey {

  /** Environment variable holding the key: 64+ hex digits or base64 of 32+ bytes. */
  public static final String ENVIRONMENT_VARIABLE = "DPSTREAM_NOISE_KEY";

  /** Environment variable naming a file that holds the key in the same encodings. */
  public static final String FILE_ENVIRONMENT_VARIABLE = "DPSTREAM_NOISE_KEY_FILE";

  /** 256 bits: the derived AES keys are AES-256. */
  public static final int MINIMUM_BYTES = 32;

  private final byte[] material;
  private boolean destroyed;

  private NoiseKey(byte[] material) {
    if (material.length < MINIMUM_BYTES) {
      throw new IllegalArgumentException(
          "a noise key needs at least " + MINIMUM_BYTES + " bytes; got " + material.length);
    }
    this.material = material.clone();
  }

  /** A key from raw bytes (copied). */
  public static NoiseKey ofBytes(byte[] material) {
    return new NoiseKey(material);
  }

  /**
   * Reads the key from {@link #ENVIRONMENT_VARIABLE} or, if that is unset, from the file named by
   * {@link #FILE_ENVIRONMENT_VARIABLE}.
   *
   * @param environment usually {@code System.getenv()}; a parameter so tests need not set variables
   * @throws IllegalStateException if neither is set or the value is not a valid key
   */
  public static NoiseKey fromEnvironment(Map<String, String> environment) {
    String inline = environment.get(ENVIRONMENT_VARIABLE);
    if (inline != null && !inline.isBlank()) {
      return new NoiseKey(decode(inline, ENVIRONMENT_VARIABLE));
    }
    String file = environment.get(FILE_ENVIRONMENT_VARIABLE);
    if (file != null && !file.isBlank()) {
      return fromFile(Path.of(file.trim()));
    }
    throw new IllegalStateException(
        "no noise key: set " + ENVIRONMENT_VARIABLE + " or " + FILE_ENVIRONMENT_VARIABLE
            + " (generate one with: head -c 32 /dev/urandom | base64)");
  }

  /** Reads a key file holding hex or base64 text (surrounding whitespace ignored). */
  public static NoiseKey fromFile(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      // The path is not secret; the content is never read into the message.
      throw new IllegalStateException("cannot read the noise key file " + file + ": " + e.getClass().getSimpleName());
    }
    return new NoiseKey(decode(text, "the noise key file " + file));
  }

  private static byte[] decode(String text, String source) {
    String trimmed = text.strip();
    try {
      if (trimmed.length() >= 2 * MINIMUM_BYTES && trimmed.chars().allMatch(NoiseKey::isHexDigit)) {
        return HexFormat.of().parseHex(trimmed);
      }
      byte[] decoded = Base64.getDecoder().decode(trimmed);
      if (decoded.length < MINIMUM_BYTES) {
        throw new IllegalStateException(
            source + " decodes to " + decoded.length + " bytes; at least " + MINIMUM_BYTES + " are needed");
      }
      return decoded;
    } catch (IllegalArgumentException e) {
      // Deliberately not chained: the decoder's message quotes characters of the key.
      throw new IllegalStateException(
          source + " is neither " + 2 * MINIMUM_BYTES + "+ hex digits nor base64 of " + MINIMUM_BYTES + "+ bytes");
    }
  }

  private static boolean isHexDigit(int c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  /** A copy of the material, for the key derivation only. */
  byte[] material() {
    if (destroyed) {
      throw new IllegalStateException("this noise key was destroyed");
    }
    return material.clone();
  }

  /**
   * Overwrites the material; the key is unusable afterwards. Sources already built from it keep
   * their derived keys.
   */
  public void destroy() {
    Arrays.fill(material, (byte) 0);
    destroyed = true;
  }

  @Override
  public String toString() {
    return "NoiseKey[redacted]";
  }
}
