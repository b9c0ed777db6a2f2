package org.dpstream.core.state;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;

/**
 * The digest of everything a state's noise depends on beyond its spec and its key: the calibrated scales (exact
 * bits), the samplers and their versions, the factorizations' coefficients, the noise derivation. A saved state
 * carries it ({@link VersionedState}); a build whose noise for the same spec and key would differ (another
 * sigma, another sampler, other coefficients) computes another digest and refuses the state, because the nodes
 * it would regenerate are not the published ones.
 *
 * <p>Beyond the named values, a law records <em>known answers</em>: draws of the mechanism's own noise code from
 * the public {@linkplain #probeSource() probe source}. A sampler that reads the bits otherwise, rounds otherwise,
 * or a changed derivation or counter layout then changes the digest even where no version token was bumped.
 *
 * <p>Each field is written as a type tag, its length-prefixed name and its value, so no two sequences of fields
 * encode alike. Computed once per estimator or policy (never per step): a state is written on every step.
 */
public final class NoiseLaw {

  /** The derivation of stream keys and counter blocks ({@link KeyedNoiseSource}, its {@code NoiseStream}). */
  static final String DERIVATION = "dpstream/noise-stream/v1;hmac-sha256;aes-256-ecb-counter(epoch32,index64,block32)";

  // A public key: the probe's bits are known answers for a build's samplers, never noise of any release.
  private static final KeyedNoiseSource PROBE = new KeyedNoiseSource(NoiseKey.ofBytes(
      "dpstream/noise-law/probe-key/v1..".getBytes(StandardCharsets.US_ASCII)));

  private static final byte NAME = 1;
  private static final byte LONG = 2;
  private static final byte DOUBLE = 3;
  private static final byte TEXT = 4;
  private static final byte DOUBLES = 5;
  private static final byte LONGS = 6;
  private static final byte BYTES = 7;

  private final MessageDigest digest;

  private NoiseLaw(String mechanism) {
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
    text("derivation", DERIVATION);
    text("mechanism", mechanism);
  }

  /** A law of {@code mechanism} (e.g. {@code "dp-tofw"}), starting with the noise derivation's version. */
  public static NoiseLaw of(String mechanism) {
    return new NoiseLaw(mechanism);
  }

  /**
   * The public source whose streams feed known-answer draws into a law. Its key is written in this class: its
   * bits are never noise of any release.
   */
  public static KeyedNoiseSource probeSource() {
    return PROBE;
  }

  /** Bits of the probe stream {@code name} at (0, 0), for a sampler's known answers. */
  public static UniformRandomProvider probeBits(String name) {
    return PROBE.forStream("noise-law-probe", name).at(0, 0);
  }

  public NoiseLaw number(String name, long value) {
    field(LONG, name);
    digest.update(ByteBuffer.allocate(Long.BYTES).putLong(value).array());
    return this;
  }

  /** A double by its exact bits (a sigma that differs in its last bit is another law). */
  public NoiseLaw number(String name, double value) {
    field(DOUBLE, name);
    digest.update(ByteBuffer.allocate(Long.BYTES).putLong(Double.doubleToRawLongBits(value)).array());
    return this;
  }

  public NoiseLaw text(String name, String value) {
    field(TEXT, name);
    bytes(value.getBytes(StandardCharsets.UTF_8));
    return this;
  }

  public NoiseLaw numbers(String name, double[] values) {
    field(DOUBLES, name);
    ByteBuffer buffer = ByteBuffer.allocate(Integer.BYTES + Long.BYTES * values.length).putInt(values.length);
    for (double v : values) {
      buffer.putLong(Double.doubleToRawLongBits(v));
    }
    digest.update(buffer.array());
    return this;
  }

  public NoiseLaw numbers(String name, long[] values) {
    field(LONGS, name);
    ByteBuffer buffer = ByteBuffer.allocate(Integer.BYTES + Long.BYTES * values.length).putInt(values.length);
    for (long v : values) {
      buffer.putLong(v);
    }
    digest.update(buffer.array());
    return this;
  }

  /** Another law's digest (e.g. one block's mechanism inside adaptive clipping, one arm inside a bandit). */
  public NoiseLaw law(String name, byte[] lawDigest) {
    field(BYTES, name);
    bytes(lawDigest);
    return this;
  }

  /** The digest; the law cannot be extended afterwards. */
  public byte[] digest() {
    return digest.digest();
  }

  private void field(byte type, String name) {
    digest.update(type);
    digest.update(NAME);
    bytes(name.getBytes(StandardCharsets.UTF_8));
  }

  private void bytes(byte[] value) {
    digest.update(ByteBuffer.allocate(Integer.BYTES).putInt(value.length).array());
    digest.update(value);
  }
}
