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
 * unscoped source and of every other scope; a {@linkplain #part(String) part} and a {@linkplain #kind(String)
 * kind} append theirs the same way, each after its own marker, in that fixed order. The online models'
 * streams have no kind (their derivation is that of the first version); every other kind of state (a bandit's
 * arms or statistics, a DP-DDA node) names its kind, so no stream of one kind can be the stream of another,
 * whatever ids the configuration gives them.
 *
 * <p>{@link #keyCheck()} names the key without revealing it ({@link KeyCheck}). A source can also
 * {@linkplain #handingOverAfter hand over} to another key after an epoch: the noise of a state bound to a retired
 * key, which keeps drawing the epoch it is in under that key and every later epoch under the primary one.
 */
public final class KeyedNoiseSource {

  private static final byte[] DERIVATION_LABEL = "dpstream/noise-stream/v1".getBytes(StandardCharsets.US_ASCII);

  /** The input of the key check's HMAC; no stream derivation input starts with it. */
  public static final String KEY_CHECK_LABEL = "dpstream/key-check/v1";

  /**
   * The label of the person pseudonyms' HMAC input ({@link #personPseudonym}): neither a stream derivation input
   * nor the key check's starts with it, so a pseudonym is never a stream key or a key check.
   */
  private static final byte[] PERSON_LABEL = "dpstream/person-pseudonym/v1".getBytes(StandardCharsets.US_ASCII);

  /** The bytes of a person pseudonym: 128 bits, so two persons of one unit collide with probability 2^-128 per pair. */
  public static final int PERSON_PSEUDONYM_BYTES = 16;

  // Stands where an unscoped derivation input ends; -1 is no length, so no unscoped input has it there.
  private static final int SCOPE_MARKER = -1;

  // Stands where the input would otherwise end or the scope's marker stand; no other input has it there.
  private static final int PART_MARKER = -2;

  // Stands where the input would otherwise end or the scope's or part's marker stand.
  private static final int KIND_MARKER = -3;

  private final SecretKeySpec macKey;
  private final KeyCheck keyCheck;
  private final byte[] scope;
  private final byte[] part;
  private final byte[] kind;
  /** Null, or the source of every epoch after {@link #lastEpoch}. */
  private final KeyedNoiseSource successor;
  private final long lastEpoch;
  /** Null outside the sensitivity recorders of the tests; see {@link NoiseDrawObserver}. */
  private final NoiseDrawObserver observer;

  public KeyedNoiseSource(NoiseKey key) {
    byte[] material = key.material();
    this.macKey = new SecretKeySpec(material, "HmacSHA256");
    java.util.Arrays.fill(material, (byte) 0);
    this.keyCheck = new KeyCheck(ByteBuffer.wrap(mac(macKey, KEY_CHECK_LABEL.getBytes(StandardCharsets.US_ASCII))).getLong());
    this.scope = null;
    this.part = null;
    this.kind = null;
    this.successor = null;
    this.lastEpoch = Long.MAX_VALUE;
    this.observer = null;
  }

  private KeyedNoiseSource(KeyedNoiseSource key, byte[] scope, byte[] part, byte[] kind, KeyedNoiseSource successor,
      long lastEpoch) {
    this(key, scope, part, kind, successor, lastEpoch, key.observer);
  }

  private KeyedNoiseSource(KeyedNoiseSource key, byte[] scope, byte[] part, byte[] kind, KeyedNoiseSource successor,
      long lastEpoch, NoiseDrawObserver observer) {
    this.macKey = key.macKey;
    this.keyCheck = key.keyCheck;
    this.scope = scope;
    this.part = part;
    this.kind = kind;
    this.successor = successor;
    this.lastEpoch = lastEpoch;
    this.observer = observer;
  }

  /**
   * The same noise, every coordinate drawn from it reported to {@code observer} (and from every source derived from
   * it by scope, part, kind or epoch). Package-private: the tests' sensitivity recorders reach it, nothing else does.
   */
  KeyedNoiseSource observedBy(NoiseDrawObserver observer) {
    return new KeyedNoiseSource(this, scope, part, kind, successor == null ? null : successor.observedBy(observer),
        lastEpoch, observer);
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
    return new KeyedNoiseSource(this, utf8(scope), null, kind, successor == null ? null : successor.scoped(scope),
        lastEpoch);
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
    return new KeyedNoiseSource(this, scope, utf8(part), kind, successor == null ? null : successor.part(part),
        lastEpoch);
  }

  /**
   * The noise of a kind of state other than an online model (e.g. {@code "dp-linear/statistics"}): its streams
   * are independent of every stream of another kind and of the models' (which have none), even where the
   * purpose, the stream id, the scope and the part coincide. The kind is the last length-prefixed field, after
   * its own marker.
   *
   * @throws IllegalStateException if this source already has a kind (kinds do not nest)
   */
  public KeyedNoiseSource kind(String kind) {
    if (this.kind != null) {
      throw new IllegalStateException("noise source already has a kind");
    }
    return new KeyedNoiseSource(this, scope, part, utf8(kind), successor == null ? null : successor.kind(kind),
        lastEpoch);
  }

  /**
   * This key for every epoch up to {@code lastEpoch}, {@code successor}'s key for every later one: the noise of a
   * state bound to a retired key, which must regenerate the noise it has published (its current epoch) and draws
   * every new epoch under the primary key. {@code successor} must have this source's scope, part and kind. The
   * epoch is the noise coordinate's ({@link NoiseStream#at}), which every mechanism of a model sets to the model's
   * tree (or composition) epoch; a mechanism whose coordinates are parts of an epoch takes its source from
   * {@link #forEpoch}.
   *
   * <p>{@code successor} may itself hand over after a later epoch (a chain of keys, one per range of epochs).
   *
   * @throws IllegalStateException if this source already hands over, the successor hands over no later than
   *     {@code lastEpoch}, or they differ in scope, part or kind
   */
  public KeyedNoiseSource handingOverAfter(long lastEpoch, KeyedNoiseSource successor) {
    if (this.successor != null) {
      throw new IllegalStateException("a noise source hands over to another key once");
    }
    if (successor.successor != null && successor.lastEpoch <= lastEpoch) {
      throw new IllegalStateException("a successor hands over after a later epoch than " + lastEpoch);
    }
    if (!java.util.Arrays.equals(scope, successor.scope) || !java.util.Arrays.equals(part, successor.part)
        || !java.util.Arrays.equals(kind, successor.kind)) {
      throw new IllegalStateException("a noise source hands over to the same scope, part and kind of another key");
    }
    if (lastEpoch < 0) {
      throw new IllegalArgumentException("epochs start at 0, got " + lastEpoch);
    }
    return new KeyedNoiseSource(this, scope, part, kind, successor, lastEpoch);
  }

  /** The source of one epoch's noise: this key's, or after a hand-over the successor's. */
  public KeyedNoiseSource forEpoch(long epoch) {
    if (successor == null) {
      return this;
    }
    return epoch <= lastEpoch ? new KeyedNoiseSource(this, scope, part, kind, null, Long.MAX_VALUE)
        : successor.forEpoch(epoch);
  }

  /** The check value of this source's key (of its own key, for a source that hands over later). */
  public KeyCheck keyCheck() {
    return keyCheck;
  }

  /** The check value of the key that draws the noise of {@code epoch}. */
  public KeyCheck keyCheckAt(long epoch) {
    return successor == null || epoch <= lastEpoch ? keyCheck : successor.keyCheckAt(epoch);
  }

  /**
   * The noise bits of one stream.
   *
   * @param purpose what the noise is for, e.g. {@code "tree"} or {@code "report-noisy-max"}, so
   *     that two mechanisms of one model never share bits
   * @param streamId e.g. the model id
   */
  public NoiseStream forStream(String purpose, String streamId) {
    NoiseStream own = new NoiseStream(mac(macKey, derivationInput(purpose, streamId)));
    NoiseStream stream = successor == null ? own : own.handingOverAfter(lastEpoch, successor.forStream(purpose, streamId));
    return observer == null ? stream : stream.observedBy(observer, streamLabel(purpose, streamId));
  }

  /**
   * The keyed pseudonym of a person within a unit (a model or a bandit), under which the service counts the person's
   * contributions: the first {@value #PERSON_PSEUDONYM_BYTES} bytes of HMAC-SHA256(key, label || unit || person),
   * length-prefixed. Without the key it says nothing of the id (HMAC is a PRF), so a store holding it holds no id,
   * and the same person has unrelated pseudonyms in two units. Of the key alone: scopes, parts and kinds do not
   * change it.
   */
  public byte[] personPseudonym(String unitId, String personId) {
    byte[] unit = utf8(unitId);
    byte[] person = utf8(personId);
    ByteBuffer input = ByteBuffer.allocate(PERSON_LABEL.length + 8 + unit.length + person.length);
    input.put(PERSON_LABEL).putInt(unit.length).put(unit).putInt(person.length).put(person);
    return java.util.Arrays.copyOf(mac(macKey, input.array()), PERSON_PSEUDONYM_BYTES);
  }

  /** The HMAC input of a stream key: injective in (purpose, stream id, scope, part, kind) (see the class comment). */
  byte[] derivationInput(String purpose, String streamId) {
    byte[] purposeBytes = purpose.getBytes(StandardCharsets.UTF_8);
    byte[] streamBytes = streamId.getBytes(StandardCharsets.UTF_8);
    int scopeLength = scope == null ? 0 : 8 + scope.length;
    int partLength = part == null ? 0 : 8 + part.length;
    int kindLength = kind == null ? 0 : 8 + kind.length;
    ByteBuffer input = ByteBuffer.allocate(DERIVATION_LABEL.length + 8 + purposeBytes.length + streamBytes.length
        + scopeLength + partLength + kindLength);
    input.put(DERIVATION_LABEL).putInt(purposeBytes.length).put(purposeBytes).putInt(streamBytes.length).put(streamBytes);
    if (scope != null) {
      input.putInt(SCOPE_MARKER).putInt(scope.length).put(scope);
    }
    if (part != null) {
      input.putInt(PART_MARKER).putInt(part.length).put(part);
    }
    if (kind != null) {
      input.putInt(KIND_MARKER).putInt(kind.length).put(kind);
    }
    return input.array();
  }

  private static byte[] mac(SecretKeySpec key, byte[] input) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      return mac.doFinal(input);
    } catch (GeneralSecurityException e) {
      // HmacSHA256 is mandatory in every Java platform; this is a broken JDK, not bad input.
      throw new IllegalStateException("HmacSHA256 unavailable", e);
    }
  }

  /** The stream's public coordinates (no key material), as the observer of a recorder sees them. */
  private String streamLabel(String purpose, String streamId) {
    StringBuilder label = new StringBuilder(purpose).append('/').append(streamId);
    for (byte[] field : new byte[][] {scope, part, kind}) {
      label.append('/').append(field == null ? "-" : new String(field, StandardCharsets.UTF_8));
    }
    return label.toString();
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return "KeyedNoiseSource[key redacted, check " + keyCheck.hex() + "]";
  }
}
