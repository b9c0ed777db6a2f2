package org.dpstream.service.bandit;

import java.nio.ByteBuffer;
import org.dpstream.bandit.Decision;

/**
 * A decided request as kept in the pending store until its reward comes, it expires, or, once
 * completed, until its marker is purged (so that a duplicate or late reward is recognised and
 * rejected instead of being counted twice).
 *
 * <p>Binary format: version byte, status, arm, phase, the decision's round, the context's timestamp,
 * the deadline, the purge time, then the context (length and values; empty once completed: the raw
 * context is kept no longer than needed).
 *
 * @param context the user's context while pending (raw data), empty once completed
 */
record PendingRequest(Status status, int arm, Decision.Phase phase, long round, long contextTimestamp,
    long deadline, long purgeAt, double[] context) {

  static final byte VERSION = 1;

  enum Status {
    /** Decided, waiting for its reward. */
    PENDING,
    /** Its reward was joined: one round was learnt. */
    JOINED,
    /** Its reward did not come within the timeout; the missing-reward policy was applied. */
    EXPIRED
  }

  Decision decision() {
    return new Decision(arm, phase, round);
  }

  /** The time of the next action: the deadline while pending, the purge time once completed. */
  long dueAt() {
    return status == Status.PENDING ? deadline : purgeAt;
  }

  PendingRequest completed(Status outcome) {
    return new PendingRequest(outcome, arm, phase, round, contextTimestamp, deadline, purgeAt, new double[0]);
  }

  byte[] encode() {
    ByteBuffer buffer = ByteBuffer.allocate(1 + 1 + 4 + 1 + 8 * 4 + 4 + 8 * context.length);
    buffer.put(VERSION).put((byte) status.ordinal()).putInt(arm).put((byte) phase.ordinal()).putLong(round)
        .putLong(contextTimestamp).putLong(deadline).putLong(purgeAt).putInt(context.length);
    for (double v : context) {
      buffer.putDouble(v);
    }
    return buffer.array();
  }

  static PendingRequest decode(byte[] bytes) {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    byte version = buffer.get();
    if (version != VERSION) {
      // A store this build cannot read must stop the bandit loudly rather than lose requests.
      throw new IllegalStateException("pending request of unknown format version " + version);
    }
    Status status = Status.values()[buffer.get()];
    int arm = buffer.getInt();
    Decision.Phase phase = Decision.Phase.values()[buffer.get()];
    long round = buffer.getLong();
    long contextTimestamp = buffer.getLong();
    long deadline = buffer.getLong();
    long purgeAt = buffer.getLong();
    double[] context = new double[buffer.getInt()];
    for (int i = 0; i < context.length; i++) {
      context[i] = buffer.getDouble();
    }
    return new PendingRequest(status, arm, phase, round, contextTimestamp, deadline, purgeAt, context);
  }
}
