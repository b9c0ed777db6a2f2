package org.dpstream.core.privacy.random;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Derives the noise bits of every stream from one secret {@link NoiseKey}.
 *
 * <p>Contract: {@code forStream(purpose, streamId).at(epoch, index)} yields a bit sequence that is a
 * deterministic function of (key, purpose, stream id, epoch, index) and computationally
 * indistinguishable from random to anyone without the key. Distinct coordinates give independent
 * sequences. So a replayed record regenerates exactly the noise it had, and no second independent
 * draw of the same noise coordinates can exist.
 *
 * <p>Derivation: the AES-256 key of a stream is HMAC-SHA256(master key, label || purpose ||
 * stream id), with length prefixes so that no two (purpose, stream id) pairs encode alike; the bits
 * at (epoch, index) are AES-256 in counter mode over blocks (epoch, index, block number). A
 * {@linkplain #scoped(String) scoped} source appends its scope as a third length-prefixed field (after
 * a marker no unscoped input has), so every stream of a scope is independent of every stream of the
 * unscoped source and of every other scope.
 */
public final class KeyedNoiseSource {

  private static final byte[] DERIVATION_LABEL = "dpstream/noise-stream/v1".getBytes(StandardCharsets.US_ASCII);

  // Stands where an unscoped derivation input ends; -1 is no length, so no unscoped input has it there.
  private static final int SCOPE_MARKER = -1;

  // Stands where the input would otherwise end or the scope's marker stand; no other input has it there.
  private static final int PART_MARKER = -2;

  private final SecretKeySpec macKey;
  private final byte[] scope;
  private final byte[] part;

  public KeyedNoiseSource(NoiseKey key) {
    byte[] material = key.material();
    this.macKey = new SecretKeySpec(material, "HmacSHA256");
    this.scope = null;
    this.part = null;
    java.util.Arrays.fill(material, (byte) 0);
  }

  private KeyedNoiseSource(SecretKeySpec macKey, byte[] scope, byte[] part) {
    this.macKey = macKey;
    this.scope = scope;
    this.part = part;
  }

  /**
   * The same key with every stream moved into {@code scope}: {@code scoped(s).forStream(p, id)} and
   * {@code scoped(s2).forStream(p, id)} for s != s2, and {@code forStream(p, id)} itself, are independent.
   * The service scopes a model's noise by where its state lives, so that two states of one model, should
   * they ever exist, could never draw the same noise for different data.
   *
   * @throws IllegalStateException if this source is already scoped (scopes do not nest)
   */
  public KeyedNoiseSource scoped(String scope) {
    if (this.scope != null) {
      throw new IllegalStateException("noise source is already scoped");
    }
    if (this.part != null) {
      throw new IllegalStateException("scope a noise source before taking a part of it");
    }
    return new KeyedNoiseSource(macKey, scope.getBytes(StandardCharsets.UTF_8), null);
  }

  /**
   * The noise of one part of a mechanism that is itself made of mechanisms (e.g. one block of adaptive
   * clipping, whose tree asks for {@code forStream("tree", modelId)} like any tree): {@code part(a)}'s streams
   * are independent of {@code part(b)}'s for a != b and of this source's own. The part is a further
   * length-prefixed field after its own marker, so no (purpose, stream id, scope) of another source encodes
   * alike.
   *
   * @throws IllegalStateException if this source is already a part (parts do not nest)
   */
  public KeyedNoiseSource part(String part) {
    if (this.part != null) {
      throw new IllegalStateException("noise source is already a part");
    }
    return new KeyedNoiseSource(macKey, scope, part.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The noise bits of one stream.
   *
   * @param purpose what the noise is for, e.g. {@code "tree"} or {@code "report-noisy-max"}, so
   *     that two mechanisms of one model never share bits
   * @param streamId e.g. the model id
   */
  public NoiseStream forStream(String purpose, String streamId) {
    return new NoiseStream(deriveStreamKey(purpose, streamId));
  }

  private byte[] deriveStreamKey(String purpose, String streamId) {
    byte[] purposeBytes = purpose.getBytes(StandardCharsets.UTF_8);
    byte[] streamBytes = streamId.getBytes(StandardCharsets.UTF_8);
    int scopeLength = scope == null ? 0 : 8 + scope.length;
    int partLength = part == null ? 0 : 8 + part.length;
    ByteBuffer input = ByteBuffer.allocate(
        DERIVATION_LABEL.length + 8 + purposeBytes.length + streamBytes.length + scopeLength + partLength);
    input.put(DERIVATION_LABEL).putInt(purposeBytes.length).put(purposeBytes).putInt(streamBytes.length).put(streamBytes);
    if (scope != null) {
      input.putInt(SCOPE_MARKER).putInt(scope.length).put(scope);
    }
    if (part != null) {
      input.putInt(PART_MARKER).putInt(part.length).put(part);
    }
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(macKey);
      return mac.doFinal(input.array());
    } catch (GeneralSecurityException e) {
      // HmacSHA256 is mandatory in every Java platform; this is a broken JDK, not bad input.
      throw new IllegalStateException("HmacSHA256 unavailable", e);
    }
  }

  @Override
  public String toString() {
    return "KeyedNoiseSource[key redacted]";
  }
}
