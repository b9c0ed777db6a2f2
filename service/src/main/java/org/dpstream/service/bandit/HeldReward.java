package org.dpstream.service.bandit;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A reward that reached learning before its decision, kept in the pending store under its request's key until the
 * decision comes (then the two are joined as if the reward had come second) or until the bandit's stream time
 * passes {@code dueAt} (then it is rejected as {@code UNKNOWN_REQUEST}, with the record it would have been
 * rejected with on arrival).
 *
 * <p>With deciders, a decision's log record and its reward are written by different producers (or by one, to two
 * topics) and reach the bandit through routing tasks that read their partitions independently: a reward can be
 * routed before its decision although it was written after it (docs/bandit-service.md, "Rewards before their
 * decisions").
 *
 * <p>Binary format: {@link #FORMAT} (never a {@link PendingRequest#VERSION}, so the two share the store), the
 * reward, its record's timestamp, the due time, the rejection's key (length, -1 for none, then UTF-8) and the
 * encoded dp.rejected record (length, bytes).
 *
 * @param rejectionKey the key the rejection carries (null when the producer sent none)
 * @param rejection the encoded {@code RejectedRecord} of the reward (original bytes and source coordinates)
 */
record HeldReward(double reward, long timestamp, long dueAt, String rejectionKey, byte[] rejection) {

  static final byte FORMAT = 2;

  /** Whether a pending-store value is a held reward (else it is a {@link PendingRequest}). */
  static boolean isHeld(byte[] stored) {
    return stored.length > 0 && stored[0] == FORMAT;
  }

  byte[] encode() {
    byte[] key = rejectionKey == null ? null : rejectionKey.getBytes(StandardCharsets.UTF_8);
    ByteBuffer buffer = ByteBuffer.allocate(1 + 8 * 3 + 4 + (key == null ? 0 : key.length) + 4 + rejection.length);
    buffer.put(FORMAT).putDouble(reward).putLong(timestamp).putLong(dueAt);
    if (key == null) {
      buffer.putInt(-1);
    } else {
      buffer.putInt(key.length).put(key);
    }
    buffer.putInt(rejection.length).put(rejection);
    return buffer.array();
  }

  static HeldReward decode(byte[] bytes) {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    byte format = buffer.get();
    if (format != FORMAT) {
      throw new IllegalStateException("not a held reward: format " + format);
    }
    double reward = buffer.getDouble();
    long timestamp = buffer.getLong();
    long dueAt = buffer.getLong();
    int keyLength = buffer.getInt();
    String key = null;
    if (keyLength >= 0) {
      byte[] keyBytes = new byte[keyLength];
      buffer.get(keyBytes);
      key = new String(keyBytes, StandardCharsets.UTF_8);
    }
    byte[] rejection = new byte[buffer.getInt()];
    buffer.get(rejection);
    return new HeldReward(reward, timestamp, dueAt, key, rejection);
  }
}
