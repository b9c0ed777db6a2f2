package org.dpstream.core.privacy.random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NoiseKeyTest {

  private static final byte[] MATERIAL = new byte[32];

  static {
    for (int i = 0; i < MATERIAL.length; i++) {
      MATERIAL[i] = (byte) (0xA0 + i);
    }
  }

  private static final String HEX = HexFormat.of().formatHex(MATERIAL);
  private static final String BASE64 = Base64.getEncoder().encodeToString(MATERIAL);

  /** Two sources agree on their first bits exactly when they were built from the same key. */
  private static long firstBits(NoiseKey key) {
    return new KeyedNoiseSource(key).forStream("tree", "m").at(0, 1).nextLong();
  }

  @Test
  void hexBase64AndFileGiveTheSameKey() throws Exception {
    long expected = firstBits(NoiseKey.ofBytes(MATERIAL));
    assertEquals(expected, firstBits(NoiseKey.fromEnvironment(Map.of(NoiseKey.ENVIRONMENT_VARIABLE, HEX))));
    assertEquals(expected, firstBits(NoiseKey.fromEnvironment(Map.of(NoiseKey.ENVIRONMENT_VARIABLE, BASE64 + "\n"))));
  }

  @Test
  void fileIsReadWhenTheVariableIsUnset(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("noise.key");
    Files.writeString(file, "  " + BASE64 + "\n");
    NoiseKey key = NoiseKey.fromEnvironment(Map.of(NoiseKey.FILE_ENVIRONMENT_VARIABLE, file.toString()));
    assertEquals(firstBits(NoiseKey.ofBytes(MATERIAL)), firstBits(key));
  }

  @Test
  void missingKeyNamesBothVariables() {
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> NoiseKey.fromEnvironment(Map.of()));
    assertTrue(e.getMessage().contains(NoiseKey.ENVIRONMENT_VARIABLE), e.getMessage());
    assertTrue(e.getMessage().contains(NoiseKey.FILE_ENVIRONMENT_VARIABLE), e.getMessage());
  }

  @Test
  void shortKeyIsRejectedWithItsLengthOnly() {
    String shortKey = Base64.getEncoder().encodeToString(new byte[] {11, 22, 33, 44, 55, 66, 77, 88, 99});
    IllegalStateException e = assertThrows(
        IllegalStateException.class,
        () -> NoiseKey.fromEnvironment(Map.of(NoiseKey.ENVIRONMENT_VARIABLE, shortKey)));
    assertTrue(e.getMessage().contains("9 bytes"), e.getMessage());
    assertFalse(e.getMessage().contains(shortKey), e.getMessage());
  }

  @Test
  void undecodableKeyIsNotQuotedInTheError() {
    // A plausible secret with one character that is neither hex nor base64.
    String secret = HEX.substring(0, 40) + "!" + HEX.substring(40);
    IllegalStateException e = assertThrows(
        IllegalStateException.class,
        () -> NoiseKey.fromEnvironment(Map.of(NoiseKey.ENVIRONMENT_VARIABLE, secret)));
    assertNoKeyMaterial(e, secret);
    assertEquals(null, e.getCause(), "the decoder's exception quotes the key and must not be chained");
  }

  @Test
  void unreadableFileErrorDoesNotCarryContent(@TempDir Path dir) {
    Path missing = dir.resolve("absent.key");
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> NoiseKey.fromFile(missing));
    assertTrue(e.getMessage().contains("absent.key"), e.getMessage());
  }

  @Test
  void toStringOfEveryKeyedObjectIsRedacted() {
    NoiseKey key = NoiseKey.ofBytes(MATERIAL);
    KeyedNoiseSource source = new KeyedNoiseSource(key);
    NoiseStream stream = source.forStream("tree", "m");
    for (Object o : new Object[] {key, source, stream}) {
      String text = o.toString();
      assertTrue(text.contains("redacted"), text);
      assertFalse(text.contains(HEX.substring(0, 8)) || text.contains(BASE64.substring(0, 8)), text);
    }
  }

  @Test
  void randomKeysAreFreshEachTime() {
    // Two one-off keys agree on a 64-bit draw with probability 2^-64.
    assertNotEquals(firstBits(NoiseKey.random()), firstBits(NoiseKey.random()));
  }

  @Test
  void destroyedKeyCannotBeUsed() {
    NoiseKey key = NoiseKey.ofBytes(MATERIAL);
    key.destroy();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> new KeyedNoiseSource(key));
    assertTrue(e.getMessage().contains("destroyed"), e.getMessage());
  }

  @Test
  void keyMaterialShorterThan256BitsIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NoiseKey.ofBytes(new byte[31]));
    assertTrue(e.getMessage().contains("at least 32 bytes; got 31"), e.getMessage());
  }

  /** Every hex digit of both cases, the boundaries of the three ranges included, reads as hex, not as base64. */
  @Test
  void hexKeysMayUseEitherCase() {
    String everyDigit = "0123456789abcdefABCDEF".repeat(3).substring(0, 64);
    byte[] material = HexFormat.of().parseHex(everyDigit);
    assertEquals(firstBits(NoiseKey.ofBytes(material)),
        firstBits(NoiseKey.fromEnvironment(Map.of(NoiseKey.ENVIRONMENT_VARIABLE, everyDigit))));
  }

  /**
   * 64 characters that would be hex but for one base64 character just outside a hex range ('/' before '0', 'G'
   * after 'F', 'g' after 'f') are base64 of 48 bytes: the hex reader must not take them.
   */
  @Test
  void aLongBase64KeyWithOneNonHexCharacterIsReadAsBase64() {
    for (char outside : new char[] {'/', 'G', 'g'}) {
      String text = HEX.substring(0, 63) + outside;
      NoiseKey key = NoiseKey.fromEnvironment(Map.of(NoiseKey.ENVIRONMENT_VARIABLE, text));
      assertEquals(firstBits(NoiseKey.ofBytes(Base64.getDecoder().decode(text))), firstBits(key), text);
    }
  }

  /** The material is overwritten in memory, not only locked behind a flag (a heap dump must not hold it). */
  @Test
  void destroyOverwritesTheMaterial() throws Exception {
    NoiseKey key = NoiseKey.ofBytes(MATERIAL);
    Field material = NoiseKey.class.getDeclaredField("material");
    material.setAccessible(true);
    byte[] held = (byte[]) material.get(key);
    key.destroy();
    assertArrayEquals(new byte[MATERIAL.length], held);
  }

  private static void assertNoKeyMaterial(Throwable e, String secret) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String message = String.valueOf(t.getMessage());
      assertFalse(message.contains(secret.substring(0, 16)), message);
    }
  }
}
