package org.dpstream.core.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;

/** The shared header binds a state to its key (by check value), its epoch and its noise law. */
class NoiseBindingHeaderTest {

  private static final KeyedNoiseSource A = new KeyedNoiseSource(TestKeys.seeded(41));
  private static final KeyedNoiseSource B = new KeyedNoiseSource(TestKeys.seeded(42));
  private static final byte[] FINGERPRINT = new byte[32];
  private static final byte[] LAW = NoiseLaw.of("test").number("sigma", 1.5).digest();

  private static byte[] header(KeyedNoiseSource key, long epoch, byte[] law) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    VersionedState.writeHeader(new DataOutputStream(bytes), (byte) 7, FINGERPRINT, key.keyCheck(), epoch, law);
    return bytes.toByteArray();
  }

  private static VersionedState.Binding read(byte[] header) throws IOException {
    return VersionedState.readHeader(new DataInputStream(new ByteArrayInputStream(header)), (byte) 7, FINGERPRINT,
        "test state of model m");
  }

  @Test
  void aHeaderReadsBackItsBindingAndTheKeyCanBePeeked() throws IOException {
    byte[] header = header(A, 3, LAW);
    VersionedState.Binding binding = read(header);
    assertEquals(A.keyCheck(), binding.key());
    assertEquals(3, binding.epoch());
    assertArrayEquals(LAW, binding.law());
    assertEquals(Optional.of(A.keyCheck()), VersionedState.peekKey(header));
    assertEquals(Optional.empty(), VersionedState.peekKey(new byte[] {1, 32, 0}));
  }

  @Test
  void theKeyIsPeekedAfterAPrefixOnlyWhereTheHeaderStarts() throws IOException {
    byte[] header = header(A, 3, LAW);
    byte[] prefixed = new byte[5 + header.length];
    System.arraycopy(header, 0, prefixed, 5, header.length);
    assertEquals(Optional.of(A.keyCheck()), VersionedState.peekKey(prefixed, 5));
    assertEquals(Optional.empty(), VersionedState.peekKey(prefixed, 4), "not where the header starts");
    assertEquals(Optional.empty(), VersionedState.peekKey(java.util.Arrays.copyOf(prefixed, prefixed.length
        - header.length + 3 + FINGERPRINT.length + Long.BYTES - 1), 5), "the key cut short");
    assertEquals(Optional.empty(), VersionedState.peekKey(prefixed, prefixed.length - 2), "fewer than three bytes");
  }

  @Test
  void aStateOfAKeyTheProcessDoesNotHoldIsRefusedNamingTheKeyByItsCheckOnly() throws IOException {
    VersionedState.Binding binding = read(header(A, 0, LAW));
    StateBindingException refused = assertThrows(StateBindingException.class,
        () -> binding.resume(NoiseKeyRing.of(B), LAW, "test state of model m"));
    assertEquals(StateBindingException.Mismatch.NOISE_KEY, refused.mismatch());
    assertEquals(Optional.of(A.keyCheck()), refused.boundKey());
    assertTrue(refused.getMessage().contains("model m") && refused.getMessage().contains(A.keyCheck().hex())
        && refused.getMessage().contains(B.keyCheck().hex()), refused.getMessage());
    assertTrue(binding.resume(NoiseKeyRing.of(B, List.of(A)), LAW, "m").keyCheckAt(0).equals(A.keyCheck()));
  }

  @Test
  void aStateOfAnotherLawIsRefusedNamingTheLaw() throws IOException {
    byte[] otherLaw = NoiseLaw.of("test").number("sigma", Math.nextUp(1.5)).digest();
    assertFalse(java.util.Arrays.equals(LAW, otherLaw), "a sigma one ulp away is another law");
    VersionedState.Binding binding = read(header(A, 0, otherLaw));
    StateBindingException refused = assertThrows(StateBindingException.class,
        () -> binding.resume(NoiseKeyRing.of(A), LAW, "test state of model m"));
    assertEquals(StateBindingException.Mismatch.NOISE_LAW, refused.mismatch());
    assertTrue(refused.getMessage().contains("noise law") && refused.getMessage().contains("model m")
        && refused.getMessage().contains(A.keyCheck().hex()), refused.getMessage());
  }

  /** An earlier build's header (version, fingerprint length 32, fingerprint) names no key: refused as unbound. */
  @Test
  void anEarlierBuildsStateIsRefusedAsUnbound() {
    byte[] legacy = new byte[2 + 32];
    legacy[0] = 1;
    legacy[1] = 32;
    StateBindingException refused = assertThrows(StateBindingException.class, () -> read(legacy));
    assertEquals(StateBindingException.Mismatch.UNBOUND, refused.mismatch());
    assertTrue(refused.getMessage().contains("noiseGeneration"), refused.getMessage());
  }

  @Test
  void aLaterVersionOrAnotherSpecIsAnIoErrorNotABindingOne() throws IOException {
    byte[] header = header(A, 0, LAW);
    header[0] = 8;
    IOException later = assertThrows(IOException.class, () -> read(header));
    assertFalse(later instanceof StateBindingException);
    byte[] other = header(A, 0, LAW);
    other[3] = 1; // the fingerprint's first byte
    IOException spec = assertThrows(IOException.class, () -> read(other));
    assertTrue(spec.getMessage().contains("different spec"), spec.getMessage());
  }

  @Test
  void lawsDifferInEveryFieldAndItsName() {
    byte[] base = NoiseLaw.of("m").number("a", 1L).text("b", "x").digest();
    assertFalse(java.util.Arrays.equals(base, NoiseLaw.of("m").number("a", 2L).text("b", "x").digest()));
    assertFalse(java.util.Arrays.equals(base, NoiseLaw.of("m").number("c", 1L).text("b", "x").digest()));
    assertFalse(java.util.Arrays.equals(base, NoiseLaw.of("n").number("a", 1L).text("b", "x").digest()));
    assertFalse(java.util.Arrays.equals(base, NoiseLaw.of("m").number("a", 1.0).text("b", "x").digest()),
        "a long and a double of the same bits are different fields");
    assertArrayEquals(base, NoiseLaw.of("m").number("a", 1L).text("b", "x").digest());
  }
}
