package org.dpstream.service.decide.memory;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * The first 128 bits of a SHA-256, as two longs: what the decision memory keeps of a request's key and of its
 * context instead of the strings and doubles themselves. Two different inputs get the same digest only if they
 * collide in those 128 bits of SHA-256, which no one knows how to make happen (a birthday search needs about
 * 2^64 hashes).
 */
public record Digest128(long high, long low) {

  /**
   * One SHA-256 per thread (the API's event loops, the context decider): {@code MessageDigest.getInstance} looks
   * its provider up and builds a new digest on every call, and a decision takes two digests, a reward one.
   */
  private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(Digest128::newSha256);

  /**
   * The digest of (bandit id, request id), each encoded unambiguously as its UTF-8 length (4 bytes) then its
   * UTF-8 bytes, so that no two pairs share an encoding.
   */
  public static Digest128 ofRequest(String banditId, String requestId) {
    MessageDigest sha256 = sha256();
    update(sha256, banditId);
    update(sha256, requestId);
    return of(sha256);
  }

  /**
   * The digest of (caller, bandit id, request id): for the default scope (null caller) {@link #ofRequest(String,
   * String)}, the digests of the decisions made before callers existed; for a named caller the marker -1 (no UTF-8
   * length) then the three parts as there, so that no request of a named caller shares an encoding with one of the
   * default scope or of another caller.
   */
  public static Digest128 ofRequest(String caller, String banditId, String requestId) {
    if (caller == null) {
      return ofRequest(banditId, requestId);
    }
    MessageDigest sha256 = sha256();
    sha256.update(new byte[] {-1, -1, -1, -1});
    update(sha256, caller);
    update(sha256, banditId);
    update(sha256, requestId);
    return of(sha256);
  }

  private static void update(MessageDigest sha256, String part) {
    byte[] utf8 = part.getBytes(StandardCharsets.UTF_8);
    sha256.update(ByteBuffer.allocate(4).putInt(utf8.length).array());
    sha256.update(utf8);
  }

  /** The digest of a context: its doubles' bits in order, -0.0 taken as 0.0 (they are the same context). */
  public static Digest128 ofContext(List<Double> context) {
    // Little-endian bits, hashed in one update rather than one per double.
    ByteBuffer bits = ByteBuffer.allocate(Double.BYTES * context.size()).order(ByteOrder.LITTLE_ENDIAN);
    for (Double v : context) {
      bits.putLong(Double.doubleToLongBits(v == 0.0 ? 0.0 : v));
    }
    MessageDigest sha256 = sha256();
    sha256.update(bits.array());
    return of(sha256);
  }

  private static Digest128 of(MessageDigest sha256) {
    ByteBuffer sum = ByteBuffer.wrap(sha256.digest());
    return new Digest128(sum.getLong(0), sum.getLong(8));
  }

  /** This thread's SHA-256, reset (a digest() resets it too; reset() covers an update that threw). */
  private static MessageDigest sha256() {
    MessageDigest sha256 = SHA256.get();
    sha256.reset();
    return sha256;
  }

  private static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
