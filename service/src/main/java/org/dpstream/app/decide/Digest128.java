package org.dpstream.app.decide;

import java.nio.ByteBuffer;
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
record Digest128(long high, long low) {

  /**
   * The digest of (bandit id, request id), each encoded unambiguously as its UTF-8 length (4 bytes) then its
   * UTF-8 bytes, so that no two pairs share an encoding.
   */
  static Digest128 ofRequest(String banditId, String requestId) {
    MessageDigest sha256 = sha256();
    byte[] length = new byte[4];
    for (String part : new String[] {banditId, requestId}) {
      byte[] utf8 = part.getBytes(StandardCharsets.UTF_8);
      ByteBuffer.wrap(length).putInt(utf8.length);
      sha256.update(length);
      sha256.update(utf8);
    }
    return of(sha256);
  }

  /** The digest of a context: its doubles' bits in order, -0.0 taken as 0.0 (they are the same context). */
  static Digest128 ofContext(List<Double> context) {
    MessageDigest sha256 = sha256();
    byte[] bits = new byte[8];
    for (Double v : context) {
      long raw = Double.doubleToLongBits(v == 0.0 ? 0.0 : v);
      for (int b = 0; b < 8; b++) {
        bits[b] = (byte) (raw >>> (8 * b));
      }
      sha256.update(bits);
    }
    return of(sha256);
  }

  private static Digest128 of(MessageDigest sha256) {
    ByteBuffer sum = ByteBuffer.wrap(sha256.digest());
    return new Digest128(sum.getLong(0), sum.getLong(8));
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
