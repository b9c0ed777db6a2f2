package org.dpstream.core.privacy.random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;

class KeyedNoiseSourceTest {

  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(7));

  private static long[] bits(KeyedNoiseSource source, String purpose, String stream, long epoch, long index, int n) {
    UniformRandomProvider provider = source.forStream(purpose, stream).at(epoch, index);
    long[] values = new long[n];
    for (int i = 0; i < n; i++) {
      values[i] = provider.nextLong();
    }
    return values;
  }

  @Test
  void sameCoordinatesGiveTheSameBitsAcrossInstances() {
    long[] first = bits(SOURCE, "tree", "model-a", 3, 17, 1000);
    long[] again = bits(new KeyedNoiseSource(TestKeys.seeded(7)), "tree", "model-a", 3, 17, 1000);
    assertArrayEquals(first, again);
  }

  @Test
  void everyCoordinateAndTheKeyChangeTheBits() {
    long[] reference = bits(SOURCE, "tree", "model-a", 3, 17, 64);
    long[][] variants = {
      bits(SOURCE, "tree", "model-a", 3, 18, 64),
      bits(SOURCE, "tree", "model-a", 4, 17, 64),
      bits(SOURCE, "tree", "model-b", 3, 17, 64),
      bits(SOURCE, "report-noisy-max", "model-a", 3, 17, 64),
      bits(new KeyedNoiseSource(TestKeys.seeded(8)), "tree", "model-a", 3, 17, 64),
    };
    for (long[] variant : variants) {
      assertEquals(0, countShared(reference, variant), "sequences of distinct coordinates share values");
    }
  }

  @Test
  void purposeAndStreamIdAreNotConcatenatedAmbiguously() {
    assertFalse(
        bits(SOURCE, "ab", "c", 0, 0, 1)[0] == bits(SOURCE, "a", "bc", 0, 0, 1)[0],
        "(ab, c) and (a, bc) must derive different stream keys");
  }

  @Test
  void neighbouringIndicesNeverOverlapEvenFarIntoTheSequence() {
    // With the JDK's 128-bit CTR, index i's sequence would continue into index i+1's after one block.
    long[] longRun = bits(SOURCE, "tree", "m", 0, 5, 20_000);
    long[] next = bits(SOURCE, "tree", "m", 0, 6, 20_000);
    assertEquals(0, countShared(longRun, next));
  }

  @Test
  void aScopeGivesStreamsIndependentOfTheUnscopedSourceAndOfOtherScopes() {
    long[] unscoped = bits(SOURCE, "tree", "model-a", 3, 17, 64);
    long[] scoped = bits(SOURCE.scoped("routing 1/6"), "tree", "model-a", 3, 17, 64);
    long[] otherScope = bits(SOURCE.scoped("routing 2/6"), "tree", "model-a", 3, 17, 64);
    long[] emptyScope = bits(SOURCE.scoped(""), "tree", "model-a", 3, 17, 64);
    assertEquals(0, countShared(unscoped, scoped));
    assertEquals(0, countShared(scoped, otherScope));
    assertEquals(0, countShared(unscoped, emptyScope), "an empty scope is still a scope");
    assertArrayEquals(scoped, bits(new KeyedNoiseSource(TestKeys.seeded(7)).scoped("routing 1/6"), "tree", "model-a", 3, 17, 64),
        "a scoped stream is a function of key, scope and coordinates");
    assertThrows(IllegalStateException.class, () -> SOURCE.scoped("a").scoped("b"));
  }

  @Test
  void aPartGivesStreamsIndependentOfItsSourceOfOtherPartsAndOfScopes() {
    long[] base = bits(SOURCE, "tree", "model-a", 0, 5, 64);
    long[] part = bits(SOURCE.part("adaptive-clip-block/0/1"), "tree", "model-a", 0, 5, 64);
    long[] otherPart = bits(SOURCE.part("adaptive-clip-block/0/2"), "tree", "model-a", 0, 5, 64);
    long[] scopedPart = bits(SOURCE.scoped("adaptive-clip-block/0/1"), "tree", "model-a", 0, 5, 64);
    long[] partOfScope = bits(SOURCE.scoped("s").part("adaptive-clip-block/0/1"), "tree", "model-a", 0, 5, 64);
    assertEquals(0, countShared(base, part));
    assertEquals(0, countShared(part, otherPart));
    assertEquals(0, countShared(part, scopedPart), "a part is not a scope of the same name");
    assertEquals(0, countShared(part, partOfScope));
    assertArrayEquals(part, bits(new KeyedNoiseSource(TestKeys.seeded(7)).part("adaptive-clip-block/0/1"), "tree",
        "model-a", 0, 5, 64), "a part's stream is a function of key, part and coordinates");
    assertThrows(IllegalStateException.class, () -> SOURCE.part("a").part("b"));
    assertThrows(IllegalStateException.class, () -> SOURCE.part("a").scoped("b"));
  }

  /** Pins the scoped derivation: the unscoped input, then -1 and the length-prefixed scope. */
  @Test
  void scopedBitsMatchAnIndependentComputationOfTheDocumentedDerivation() throws Exception {
    byte[] material = new byte[32];
    for (int i = 0; i < 32; i++) {
      material[i] = (byte) (3 * i);
    }
    byte[] purpose = "tree".getBytes(StandardCharsets.UTF_8);
    byte[] stream = "m".getBytes(StandardCharsets.UTF_8);
    byte[] scope = "routing 4/6".getBytes(StandardCharsets.UTF_8);
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(material, "HmacSHA256"));
    byte[] label = "dpstream/noise-stream/v1".getBytes(StandardCharsets.US_ASCII);
    byte[] streamKey = mac.doFinal(ByteBuffer.allocate(label.length + 16 + purpose.length + stream.length + scope.length)
        .put(label).putInt(purpose.length).put(purpose).putInt(stream.length).put(stream)
        .putInt(-1).putInt(scope.length).put(scope).array());
    Cipher aes = Cipher.getInstance("AES/ECB/NoPadding");
    aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(streamKey, "AES"));
    UniformRandomProvider provider =
        new KeyedNoiseSource(NoiseKey.ofBytes(material)).scoped("routing 4/6").forStream("tree", "m").at(1, 9);
    byte[] counter = ByteBuffer.allocate(16).putInt(1).putLong(9).putInt(0).array();
    ByteBuffer keystream = ByteBuffer.wrap(aes.doFinal(counter)).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(keystream.getLong(), provider.nextLong());
    assertEquals(keystream.getLong(), provider.nextLong());
  }

  /** Pins the derivation (HMAC-SHA256 subkey, AES-256 over (epoch, index, block)): changing it breaks replay. */
  @Test
  void bitsMatchAnIndependentComputationOfTheDocumentedDerivation() throws Exception {
    byte[] material = new byte[32];
    for (int i = 0; i < 32; i++) {
      material[i] = (byte) i;
    }
    byte[] purpose = "tree".getBytes(StandardCharsets.UTF_8);
    byte[] stream = "model-α".getBytes(StandardCharsets.UTF_8);
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(material, "HmacSHA256"));
    byte[] label = "dpstream/noise-stream/v1".getBytes(StandardCharsets.US_ASCII);
    byte[] streamKey = mac.doFinal(ByteBuffer.allocate(label.length + 8 + purpose.length + stream.length)
        .put(label).putInt(purpose.length).put(purpose).putInt(stream.length).put(stream).array());
    Cipher aes = Cipher.getInstance("AES/ECB/NoPadding");
    aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(streamKey, "AES"));
    long epoch = 2;
    long index = 0x1234_5678_9AL;
    UniformRandomProvider provider = new KeyedNoiseSource(NoiseKey.ofBytes(material)).forStream("tree", "model-α").at(epoch, index);
    for (int block = 0; block < 40; block++) { // crosses several refills
      byte[] counter = ByteBuffer.allocate(16).putInt((int) epoch).putLong(index).putInt(block).array();
      ByteBuffer keystream = ByteBuffer.wrap(aes.doFinal(counter)).order(ByteOrder.LITTLE_ENDIAN);
      assertEquals(keystream.getLong(), provider.nextLong(), "block " + block);
      assertEquals(keystream.getLong(), provider.nextLong(), "block " + block);
    }
  }

  /**
   * Byte frequencies of 2^20 bytes: chi-square with 255 degrees of freedom at alpha = 1e-6 (a fresh
   * key would fail with probability 1e-6; the key here is fixed, so the test is deterministic).
   */
  @Test
  void bytesAreUniform() {
    int n = 1 << 17;
    long[] counts = new long[256];
    UniformRandomProvider provider = SOURCE.forStream("tree", "uniformity").at(0, 1);
    for (int i = 0; i < n; i++) {
      long v = provider.nextLong();
      for (int b = 0; b < 8; b++) {
        counts[(int) ((v >>> (8 * b)) & 0xFF)]++;
      }
    }
    double expected = n * 8 / 256.0;
    double statistic = 0;
    for (long c : counts) {
      statistic += (c - expected) * (c - expected) / expected;
    }
    double critical = ChiSquaredDistribution.of(255).inverseSurvivalProbability(1e-6);
    assertTrue(statistic < critical, "chi-square " + statistic + " >= " + critical);
  }

  @Test
  void coordinatesOutOfRangeAreRejected() {
    NoiseStream stream = SOURCE.forStream("tree", "m");
    assertThrows(IllegalArgumentException.class, () -> stream.at(-1, 0));
    assertThrows(IllegalArgumentException.class, () -> stream.at(NoiseStream.MAX_EPOCH + 1, 0));
    assertThrows(IllegalArgumentException.class, () -> stream.at(0, -1));
    assertFalse(stream.at(NoiseStream.MAX_EPOCH, 0).nextLong() == stream.at(NoiseStream.MAX_EPOCH - 1, 0).nextLong(),
        "the largest epoch is a coordinate of its own");
  }

  /**
   * A coordinate's block counter is 32 bits: past 2^32 blocks it would wrap to block 0 and hand out the same
   * keystream, so the same noise, twice. Reaching that by drawing takes 64 GiB of keystream, so the test moves the
   * counter (the private state of the coordinate's bits) to 32 blocks before the end.
   */
  @Test
  void aCoordinateRefusesToWrapItsBlockCounter() throws Exception {
    UniformRandomProvider bits = SOURCE.forStream("tree", "m").at(0, 0);
    bits.nextLong();
    set(bits, "nextBlock", (1L << 32) - 32);
    set(bits, "position", get(bits, "available"));
    for (int i = 0; i < 32 * 16 / Long.BYTES; i++) {
      bits.nextLong();
    }
    IllegalStateException exhausted = assertThrows(IllegalStateException.class, bits::nextLong);
    assertTrue(exhausted.getMessage().contains("exhausted"), exhausted.getMessage());
  }

  private static Object get(Object target, String field) throws ReflectiveOperationException {
    Field f = target.getClass().getDeclaredField(field);
    f.setAccessible(true);
    return f.get(target);
  }

  private static void set(Object target, String field, Object value) throws ReflectiveOperationException {
    Field f = target.getClass().getDeclaredField(field);
    f.setAccessible(true);
    f.set(target, value);
  }

  /** The recorders tell streams apart by their label: purpose, stream id, then scope, part and kind or "-". */
  @Test
  void anObservedSourceReportsEachDrawUnderItsStreamsPublicCoordinates() {
    NoiseDraws draws = new NoiseDraws();
    KeyedNoiseSource recorded = draws.recording(SOURCE);
    long value = recorded.scoped("s").kind("k").forStream("tree", "m").at(2, 5).nextLong();
    recorded.part("p").forStream("report-noisy-max", "b").at(0, 1);
    assertEquals(List.of(new NoiseDraws.Draw("tree/m/s/-/k", 2, 5, 1), new NoiseDraws.Draw("report-noisy-max/b/-/p/-", 0, 1, 0)),
        draws.draws());
    assertEquals(SOURCE.scoped("s").kind("k").forStream("tree", "m").at(2, 5).nextLong(), value, "observing changes no bit");
  }

  private static int countShared(long[] a, long[] b) {
    Set<Long> seen = new HashSet<>();
    for (long v : a) {
      seen.add(v);
    }
    int shared = 0;
    for (long v : b) {
      if (seen.contains(v)) {
        shared++;
      }
    }
    return shared;
  }
}
