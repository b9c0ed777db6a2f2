package org.dpstream.core.privacy.random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;

/** The key check value, the streams of a kind, and a source that hands over to another key after an epoch. */
class KeyCheckAndHandOverTest {

  private static final KeyedNoiseSource A = new KeyedNoiseSource(TestKeys.seeded(21));
  private static final KeyedNoiseSource B = new KeyedNoiseSource(TestKeys.seeded(22));

  private static long first(KeyedNoiseSource source, long epoch, long index) {
    return source.forStream("tree", "m").at(epoch, index).nextLong();
  }

  /** Pins the check: the first 8 bytes of HMAC-SHA256(key, "dpstream/key-check/v1"), big-endian. */
  @Test
  void theKeyCheckIsTheFirstEightBytesOfTheHmacOfItsLabel() throws Exception {
    byte[] material = new byte[32];
    for (int i = 0; i < 32; i++) {
      material[i] = (byte) (5 * i + 1);
    }
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(material, "HmacSHA256"));
    long expected = ByteBuffer.wrap(mac.doFinal("dpstream/key-check/v1".getBytes(StandardCharsets.US_ASCII))).getLong();
    KeyCheck check = new KeyedNoiseSource(NoiseKey.ofBytes(material)).keyCheck();
    assertEquals(expected, check.value());
    assertEquals(16, check.hex().length());
    assertEquals(check, KeyCheck.parse(check.hex()));
    assertThrows(IllegalArgumentException.class, () -> KeyCheck.parse("12"));
    assertThrows(IllegalArgumentException.class, () -> KeyCheck.parse("zzzzzzzzzzzzzzzz"));
  }

  @Test
  void theCheckNamesTheKeyWhateverItsScopePartOrKind() {
    assertNotEquals(A.keyCheck(), B.keyCheck());
    assertEquals(A.keyCheck(), new KeyedNoiseSource(TestKeys.seeded(21)).keyCheck());
    assertEquals(A.keyCheck(), A.scoped("routing partition 1 of 6").part("p").kind("k").keyCheck());
    assertTrue(A.toString().contains("redacted") && A.toString().contains(A.keyCheck().hex()), A.toString());
  }

  /** Pins a kind's derivation: the model's input, then -3 and the length-prefixed kind (after scope and part). */
  @Test
  void aKindIsALastLengthPrefixedFieldAfterItsMarker() throws Exception {
    byte[] material = new byte[32];
    byte[] purpose = "tree".getBytes(StandardCharsets.UTF_8);
    byte[] stream = "b/arm-0/stats".getBytes(StandardCharsets.UTF_8);
    byte[] scope = "routing partition 2 of 6".getBytes(StandardCharsets.UTF_8);
    byte[] kind = "dp-linear/statistics".getBytes(StandardCharsets.UTF_8);
    byte[] label = "dpstream/noise-stream/v1".getBytes(StandardCharsets.US_ASCII);
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(material, "HmacSHA256"));
    byte[] streamKey = mac.doFinal(ByteBuffer.allocate(label.length + 24 + purpose.length + stream.length + scope.length
            + kind.length)
        .put(label).putInt(purpose.length).put(purpose).putInt(stream.length).put(stream)
        .putInt(-1).putInt(scope.length).put(scope).putInt(-3).putInt(kind.length).put(kind).array());
    Cipher aes = Cipher.getInstance("AES/ECB/NoPadding");
    aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(streamKey, "AES"));
    ByteBuffer keystream = ByteBuffer.wrap(aes.doFinal(ByteBuffer.allocate(16).putInt(0).putLong(1).putInt(0).array()))
        .order(ByteOrder.LITTLE_ENDIAN);
    KeyedNoiseSource source = new KeyedNoiseSource(NoiseKey.ofBytes(material));
    // The kind may be taken before the scope: the encoding's order is fixed, not the calls'.
    UniformRandomProvider bits = source.kind("dp-linear/statistics").scoped("routing partition 2 of 6")
        .forStream("tree", "b/arm-0/stats").at(0, 1);
    assertEquals(keystream.getLong(), bits.nextLong());
    assertNotEquals(first(source.scoped("routing partition 2 of 6"), 0, 1),
        source.scoped("routing partition 2 of 6").kind("dp-linear/statistics").forStream("tree", "m").at(0, 1).nextLong());
    assertThrows(IllegalStateException.class, () -> source.kind("a").kind("b"));
  }

  @Test
  void aHandOverDrawsEveryEpochUpToTheLastUnderItsKeyAndEveryLaterOneUnderTheSuccessors() {
    KeyedNoiseSource handing = A.handingOverAfter(3, B);
    for (long epoch = 0; epoch <= 6; epoch++) {
      KeyedNoiseSource expected = epoch <= 3 ? A : B;
      assertEquals(first(expected, epoch, 7), first(handing, epoch, 7), "epoch " + epoch);
      assertEquals(expected.keyCheck(), handing.keyCheckAt(epoch));
      assertEquals(first(expected, epoch, 7), first(handing.forEpoch(epoch), epoch, 7));
      assertEquals(first(expected.part("x"), 0, 7), first(handing.forEpoch(epoch).part("x"), 0, 7));
    }
    assertEquals(A.keyCheck(), handing.keyCheck());
    assertEquals(first(B.scoped("s").kind("k"), 4, 1), first(handing.scoped("s").kind("k"), 4, 1),
        "scopes and kinds apply to both keys");
    assertEquals(first(A.scoped("s"), 3, 1), first(handing.scoped("s"), 3, 1));
    assertThrows(IllegalStateException.class, () -> handing.handingOverAfter(5, A));
    assertThrows(IllegalStateException.class, () -> A.handingOverAfter(1, B.scoped("s")));
  }

  /** A successor of another part or kind would draw another stream's noise after the hand-over. */
  @Test
  void aHandOverRefusesASuccessorOfAnotherPartOrKindAndANegativeEpoch() {
    assertThrows(IllegalStateException.class, () -> A.handingOverAfter(1, B.part("p")));
    assertThrows(IllegalStateException.class, () -> A.part("p").handingOverAfter(1, B.part("q")));
    assertThrows(IllegalStateException.class, () -> A.handingOverAfter(1, B.kind("k")));
    assertThrows(IllegalStateException.class, () -> A.kind("k").handingOverAfter(1, B.kind("j")));
    assertEquals(first(B.part("p").kind("k"), 2, 1), first(A.part("p").kind("k").handingOverAfter(1, B.part("p").kind("k")), 2, 1));
    IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> A.handingOverAfter(-1, B));
    assertTrue(negative.getMessage().contains("-1"), negative.getMessage());
  }

  @Test
  void aChainOfHandOversGivesEachRangeOfEpochsItsKey() {
    KeyedNoiseSource c = new KeyedNoiseSource(TestKeys.seeded(23));
    KeyedNoiseSource chain = A.handingOverAfter(0, B.handingOverAfter(2, c));
    assertEquals(first(A, 0, 3), first(chain, 0, 3));
    assertEquals(first(B, 1, 3), first(chain, 1, 3));
    assertEquals(first(B, 2, 3), first(chain, 2, 3));
    assertEquals(first(c, 3, 3), first(chain, 3, 3));
    assertEquals(c.keyCheck(), chain.keyCheckAt(9));
    assertThrows(IllegalStateException.class, () -> A.handingOverAfter(2, B.handingOverAfter(2, c)));
  }
}
