package org.dpstream.core.privacy.random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The primary key and the retired ones, from the environment or files, never the command line. */
class NoiseKeyRingTest {

  private static final KeyedNoiseSource A = new KeyedNoiseSource(TestKeys.seeded(31));
  private static final KeyedNoiseSource B = new KeyedNoiseSource(TestKeys.seeded(32));
  private static final KeyedNoiseSource C = new KeyedNoiseSource(TestKeys.seeded(33));

  private static long first(KeyedNoiseSource source, long epoch) {
    return source.forStream("tree", "m").at(epoch, 1).nextLong();
  }

  private static byte[] material(int offset) {
    byte[] bytes = new byte[32];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (offset + i);
    }
    return bytes;
  }

  @Test
  void aStateOfThePrimaryResumesUnderItAndOneOfARetiredKeyHandsOverAfterItsEpoch() {
    NoiseKeyRing ring = NoiseKeyRing.of(B, List.of(A));
    KeyedNoiseSource primary = ring.resume(B.keyCheck(), 4).orElseThrow();
    assertEquals(first(B, 2), first(primary, 2));
    KeyedNoiseSource retired = ring.resume(A.keyCheck(), 4).orElseThrow();
    assertEquals(first(A, 4), first(retired, 4));
    assertEquals(first(B, 5), first(retired, 5));
    assertEquals(B.keyCheck(), retired.keyCheckAt(5));
    assertTrue(ring.resume(C.keyCheck(), 4).isEmpty(), "a key the ring does not hold");
    assertTrue(ring.isRetired(A.keyCheck()));
    assertFalse(ring.isRetired(B.keyCheck()));
    assertEquals(List.of(A.keyCheck()), ring.retiredChecks());
  }

  @Test
  void scopesAndKindsApplyToEveryKeyOfTheRing() {
    NoiseKeyRing ring = NoiseKeyRing.of(B, List.of(A)).scoped("s").kind("k");
    assertEquals(first(A.scoped("s").kind("k"), 0), first(ring.resume(A.keyCheck(), 0).orElseThrow(), 0));
    assertEquals(first(B.scoped("s").kind("k"), 1), first(ring.resume(A.keyCheck(), 0).orElseThrow(), 1));
    assertEquals(first(B.scoped("s").kind("k"), 0), first(ring.primary(), 0));
  }

  @Test
  void aRingOfOneKeyResumesOnlyItsOwnStatesAndDescribesOnlyItsPrimary() {
    NoiseKeyRing ring = NoiseKeyRing.of(A);
    assertEquals(first(A, 3), first(ring.primary(), 3));
    assertEquals(first(A, 3), first(ring.resume(A.keyCheck(), 2).orElseThrow(), 3));
    assertTrue(ring.resume(B.keyCheck(), 2).isEmpty(), "a state of another key is refused");
    assertEquals(List.of(), ring.retiredChecks());
    assertEquals("primary " + A.keyCheck(), ring.describe());
    assertEquals("primary " + B.keyCheck() + ", retired [" + A.keyCheck() + ", " + C.keyCheck() + "]",
        NoiseKeyRing.of(B, List.of(A, C)).describe());
  }

  /** A count kept under a retired key is found after a rotation: its pseudonym is listed, after the primary's. */
  @Test
  void personPseudonymsAreThePrimarysThenEachRetiredKeysInOrder() {
    List<byte[]> pseudonyms = NoiseKeyRing.of(B, List.of(A, C)).personPseudonyms("model", "person-7");
    assertEquals(3, pseudonyms.size());
    assertArrayEquals(B.personPseudonym("model", "person-7"), pseudonyms.get(0));
    assertArrayEquals(A.personPseudonym("model", "person-7"), pseudonyms.get(1));
    assertArrayEquals(C.personPseudonym("model", "person-7"), pseudonyms.get(2));
  }

  @Test
  void aKeyListedTwiceIsRefusedByItsCheckValue() {
    IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
        () -> NoiseKeyRing.of(A, List.of(B, new KeyedNoiseSource(TestKeys.seeded(31)))));
    assertTrue(twice.getMessage().contains(A.keyCheck().hex()), twice.getMessage());
  }

  @Test
  void retiredKeysComeFromTheVariableAndTheFileInEitherEncoding(@TempDir Path dir) throws Exception {
    byte[] primary = material(1);
    byte[] first = material(40);
    byte[] second = material(80);
    byte[] third = material(120);
    Path file = dir.resolve("retired.keys");
    Files.writeString(file, Base64.getEncoder().encodeToString(third) + "\n");
    NoiseKeyRing ring = NoiseKeyRing.fromEnvironment(Map.of(
        NoiseKey.ENVIRONMENT_VARIABLE, HexFormat.of().formatHex(primary),
        NoiseKey.RETIRED_ENVIRONMENT_VARIABLE,
        HexFormat.of().formatHex(first) + ", " + Base64.getEncoder().encodeToString(second),
        NoiseKey.RETIRED_FILE_ENVIRONMENT_VARIABLE, file.toString()));
    assertEquals(new KeyedNoiseSource(NoiseKey.ofBytes(primary)).keyCheck(), ring.primary().keyCheck());
    assertEquals(List.of(new KeyedNoiseSource(NoiseKey.ofBytes(first)).keyCheck(),
        new KeyedNoiseSource(NoiseKey.ofBytes(second)).keyCheck(),
        new KeyedNoiseSource(NoiseKey.ofBytes(third)).keyCheck()), ring.retiredChecks());
    assertTrue(NoiseKeyRing.fromEnvironment(Map.of(NoiseKey.ENVIRONMENT_VARIABLE, HexFormat.of().formatHex(primary)))
        .retiredChecks().isEmpty());
  }

  /** A malformed retired key is named by its position, never quoted; the ring's description holds checks only. */
  @Test
  void errorsAndDescriptionsCarryNoKeyMaterial() {
    String good = HexFormat.of().formatHex(material(7));
    String secretLooking = "QUJDREVGR0hJSktMTU5PUA=="; // 16 bytes: too short
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> NoiseKey.retiredFromEnvironment(
        Map.of(NoiseKey.RETIRED_ENVIRONMENT_VARIABLE, good + " " + secretLooking)));
    assertTrue(e.getMessage().contains("key 2 of 2"), e.getMessage());
    assertFalse(e.getMessage().contains(secretLooking), e.getMessage());
    assertFalse(e.getMessage().contains(good), e.getMessage());
    NoiseKeyRing ring = NoiseKeyRing.of(B, List.of(A));
    assertTrue(ring.toString().contains(A.keyCheck().hex()) && ring.toString().contains(B.keyCheck().hex()));
    IllegalStateException unreadable = assertThrows(IllegalStateException.class, () -> NoiseKey.retiredFromEnvironment(
        Map.of(NoiseKey.RETIRED_FILE_ENVIRONMENT_VARIABLE, "/nonexistent/retired.keys")));
    assertTrue(unreadable.getMessage().contains("retired noise key file"), unreadable.getMessage());
  }
}
