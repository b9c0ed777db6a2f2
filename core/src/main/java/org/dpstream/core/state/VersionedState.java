package org.dpstream.core.state;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import org.dpstream.core.privacy.random.KeyCheck;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKeyRing;

/**
 * Field encodings shared by every saved state of a private model or policy: a header of a version byte, the
 * fingerprint of the spec the state was written under, and its noise binding (the check value of the key its
 * current epoch is drawn under, that epoch, and the digest of its {@link NoiseLaw}), then plain fields.
 *
 * <p>The fingerprint check matters for privacy, not only for robustness: state written under one spec
 * (another epsilon, dimension or clipping) resumed under another would silently mix two accountings. The binding
 * matters as much: a restored state regenerates the noise of its live nodes from a key and a law, and another
 * key or another law would publish a second, independent draw of nodes already published
 * ({@link StateBindingException}).
 *
 * <p>Layout: version, {@value #BOUND} (no earlier header has it there: their second byte is the fingerprint's
 * length, 32), fingerprint length and bytes, key check (8 bytes), epoch (8 bytes), law digest length and bytes.
 */
public final class VersionedState {

  /** The second byte of a bound header. */
  static final int BOUND = 0xB1;

  /** The second byte of an earlier build's header: the length of its fingerprint, a SHA-256. */
  private static final int EARLIER_FINGERPRINT_LENGTH = 32;

  private VersionedState() {}

  /**
   * What a state's header binds it to.
   *
   * @param key the check value of the key that draws the noise of {@code epoch} (and of the epochs before it
   *     that the state still needs)
   * @param epoch the epoch of the state's latest step: its noise up to this epoch is drawn under {@code key}
   * @param law the digest of its {@link NoiseLaw}
   */
  public record Binding(KeyCheck key, long epoch, byte[] law) {

    /**
     * The noise this state resumes with, from {@code keys}: its own key for its epoch, the primary key for every
     * later epoch ({@link NoiseKeyRing#resume}).
     *
     * @param expectedLaw this build's law digest for the state's spec
     * @param what names the state in messages, e.g. {@code "DP-TOFW state of model m"}
     * @throws StateBindingException if the ring has no key of this check or the law differs
     */
    public KeyedNoiseSource resume(NoiseKeyRing keys, byte[] expectedLaw, String what) throws StateBindingException {
      Optional<KeyedNoiseSource> source = keys.resume(key, epoch);
      boolean lawDiffers = !Arrays.equals(law, expectedLaw);
      if (source.isEmpty()) {
        throw new StateBindingException(StateBindingException.Mismatch.NOISE_KEY, key, what + " is bound to noise key "
            + key + ", which this process does not hold (" + keys.describe() + ")"
            + (lawDiffers ? ", and was written under another noise law" : "") + "; it is neither resumed nor replaced:"
            + " restart with that key as primary or retired, or declare a new noiseGeneration");
      }
      if (lawDiffers) {
        throw new StateBindingException(StateBindingException.Mismatch.NOISE_LAW, key, what + " (noise key " + key
            + ") was written under another noise law (digest " + shortHex(law) + ", this build's " + shortHex(expectedLaw)
            + "): a calibrated sigma, a sampler, a coefficient or the noise derivation changed, so its published noise"
            + " cannot be regenerated; it is neither resumed nor replaced: run the build that wrote it, or declare a new"
            + " noiseGeneration");
      }
      return source.get();
    }
  }

  /**
   * Writes a header.
   *
   * @param key the check value of the key the state's current epoch is drawn under
   * @param epoch the state's current epoch
   * @param law its noise law's digest (computed once by the estimator)
   */
  public static void writeHeader(DataOutput out, byte version, byte[] specFingerprint, KeyCheck key, long epoch,
      byte[] law) throws IOException {
    if (specFingerprint.length > 255 || law.length > 255) {
      throw new IllegalArgumentException("a spec fingerprint and a law digest have at most 255 bytes, got "
          + specFingerprint.length + " and " + law.length);
    }
    out.writeByte(version);
    out.writeByte(BOUND);
    out.writeByte(specFingerprint.length);
    out.write(specFingerprint);
    out.writeLong(key.value());
    out.writeLong(epoch);
    out.writeByte(law.length);
    out.write(law);
  }

  /**
   * Reads and checks a header: the version and the spec. The binding is checked by {@link Binding#resume}.
   *
   * @param what names the state in messages, e.g. {@code "DP-TOFW state of model m"}
   * @throws StateBindingException ({@link StateBindingException.Mismatch#UNBOUND}) for a state written by an
   *     earlier build, which names no key and no law
   * @throws IOException on a later version, a corrupt header, or a state written under another spec
   */
  public static Binding readHeader(DataInput in, byte expectedVersion, byte[] specFingerprint, String what)
      throws IOException {
    byte version = in.readByte();
    int marker = in.readUnsignedByte();
    if (marker != BOUND && marker != EARLIER_FINGERPRINT_LENGTH) {
      throw new IOException(what + ": corrupt header (neither bound nor of an earlier build)");
    }
    if (marker != BOUND) {
      throw new StateBindingException(StateBindingException.Mismatch.UNBOUND, null, what + " (version " + version
          + ") was written by a build that recorded neither its noise key nor its noise law (this build writes version "
          + expectedVersion + "); nothing shows which noise its releases published, so it is neither resumed nor"
          + " replaced: declare a new noiseGeneration for it");
    }
    if (version != expectedVersion) {
      throw new IOException(what + ": version " + version + " is unknown (this build reads " + expectedVersion + ")");
    }
    byte[] fingerprint = new byte[in.readUnsignedByte()];
    in.readFully(fingerprint);
    if (!Arrays.equals(fingerprint, specFingerprint)) {
      throw new IOException(what + " was written under a different spec (dimension, loss, domain, budget,"
          + " horizon, clipping or accountant changed); it cannot be resumed under this one");
    }
    KeyCheck key = new KeyCheck(in.readLong());
    long epoch = in.readLong();
    if (epoch < 0) {
      throw new IOException(what + ": corrupt header (epoch " + epoch + ")");
    }
    byte[] law = new byte[in.readUnsignedByte()];
    in.readFully(law);
    return new Binding(key, epoch, law);
  }

  /**
   * The key check of a serialized state written with {@link #writeHeader}, read without parsing the rest; empty
   * for anything else (an earlier build's state, a truncated one). For the service's count of states per key.
   */
  public static Optional<KeyCheck> peekKey(byte[] state) {
    return peekKey(state, 0);
  }

  /** {@link #peekKey(byte[])} of the state that starts at {@code from} in {@code bytes} (e.g. after a stamp). */
  public static Optional<KeyCheck> peekKey(byte[] bytes, int from) {
    if (bytes.length - from < 3 || (bytes[from + 1] & 0xFF) != BOUND) {
      return Optional.empty();
    }
    int keyAt = from + 3 + (bytes[from + 2] & 0xFF);
    if (bytes.length < keyAt + Long.BYTES) {
      return Optional.empty();
    }
    return Optional.of(new KeyCheck(ByteBuffer.wrap(bytes, keyAt, Long.BYTES).getLong()));
  }

  private static String shortHex(byte[] digest) {
    return HexFormat.of().formatHex(digest, 0, Math.min(8, digest.length));
  }

  /**
   * The vector's doubles as {@link DataOutput#writeDouble} writes them (big-endian, NaN canonical), in one write: a
   * write per double went through the stream's synchronized write each time, 8 % of the bandit's learning thread at
   * d = 50 in a JFR profile (docs/benchmarks.md, "What the young collections copy").
   */
  public static void writeVector(DataOutput out, double[] vector) throws IOException {
    ByteBuffer bytes = ByteBuffer.allocate(Double.BYTES * vector.length);
    for (double v : vector) {
      bytes.putLong(Double.doubleToLongBits(v));
    }
    out.write(bytes.array());
  }

  public static double[] readVector(DataInput in, int dimension) throws IOException {
    double[] vector = new double[dimension];
    for (int i = 0; i < dimension; i++) {
      vector[i] = in.readDouble();
    }
    return vector;
  }
}
