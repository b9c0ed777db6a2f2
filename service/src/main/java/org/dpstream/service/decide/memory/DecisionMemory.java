package org.dpstream.service.decide.memory;

import java.util.concurrent.CompletableFuture;
import org.dpstream.schemas.DecisionPhase;

/**
 * The decisions this instance made or logged recently, by (bandit id, request id), so that a request id decided
 * twice (a client's retry, a replayed context) gets the first decision back. Kept for a window of time (the
 * bandits' longest reward timeout: after it the topology has expired the request anyway) and at most
 * {@code capacity} entries, oldest dropped first. Thread-safe: one lock, held only to read or change the table
 * (never across an encode or a send).
 *
 * <p><b>No object per remembered decision.</b> At 2,000 decisions/s and 60 s the memory holds 120,000 decisions;
 * as objects (a key string, map entries, the decision) young collections copied them from survivor space to
 * survivor space until promoted, most of what every pause copied (docs/benchmarks.md, "What the young collections copy"). Here a decision
 * is a slot of primitive columns (a ring in insertion order, allocated once at capacity; about 65 bytes a slot
 * plus 8-16 of index, 15 MB at the default 200,000), which the collector never scans. The key is the
 * {@link Digest128} of (bandit id, request id): two requests share a slot only if their keys collide in the first
 * 128 bits of SHA-256. A decision keeps an object only while its records' write is not acknowledged (its
 * {@link Pending} state: the log record's bytes for a retry, the write's future), or after that write failed.
 */
public final class DecisionMemory {

  private static final DecisionPhase[] PHASES = DecisionPhase.values();
  private static final CompletableFuture<Void> ACKNOWLEDGED = CompletableFuture.completedFuture(null);

  private final long windowMillis;
  private final int capacity;
  private final DigestIndex index;
  private final long[] rememberedAt;
  private final int[] arm;
  private final long[] modelStep;
  private final byte[] phase;
  private final long[] timestamp;
  private final long[] contextHigh;
  private final long[] contextLow;
  /** The {@link Pending} state of each slot whose write is under way or failed; null once acknowledged. */
  private final Pending[] pending;
  /** The oldest slot, and how many follow it (in insertion order, wrapping around). */
  private int oldest;
  private int size;

  /** A remembered decision as read out, and the time of its request (its records' timestamp). */
  public record Logged(int arm, long modelStep, DecisionPhase phase, long timestamp, Digest128 context) {}

  /** The write state of a decision whose records are not acknowledged yet. Guarded by the memory's lock. */
  private static final class Pending {
    /** The log record's value until the log accepts it (kept for a retry). */
    byte[] logValue;
    /** The latest write of the decision's records, under way or failed. */
    CompletableFuture<Void> write;

    Pending(byte[] logValue, CompletableFuture<Void> write) {
      this.logValue = logValue;
      this.write = write;
    }
  }

  /**
   * A write of a remembered decision's records for the caller to make, outside the lock: once {@code after}
   * completes, the log record ({@code logValue}, unless null: the log has it already) and the decision; then
   * {@link #settle} with the outcome, then complete {@code done} with it.
   */
  public record Write(int slot, Pending state, CompletableFuture<Void> after, byte[] logValue,
      CompletableFuture<Void> done) {}

  public enum Outcome { CREATED, FOUND, OTHER_CONTEXT }

  /**
   * What {@link #rememberIfAbsent} did: the remembered decision ({@code OTHER_CONTEXT}: remembered for another
   * context, nothing else done), the acknowledgement of its latest write, and a write to make, if any.
   */
  public record Found(Outcome outcome, Logged logged, CompletableFuture<Void> written, Write write) {}

  public DecisionMemory(long windowMillis, int capacity) {
    this(windowMillis, capacity, new DigestIndex(capacity));
  }

  /** With the given index (tests use small tables to force collisions and wrap-around). */
  DecisionMemory(long windowMillis, int capacity, DigestIndex index) {
    this.windowMillis = windowMillis;
    this.capacity = capacity;
    this.index = index;
    rememberedAt = new long[capacity];
    arm = new int[capacity];
    modelStep = new long[capacity];
    phase = new byte[capacity];
    timestamp = new long[capacity];
    contextHigh = new long[capacity];
    contextLow = new long[capacity];
    pending = new Pending[capacity];
  }

  /**
   * Remembers {@code candidate} (whose log record is {@code logValue}) unless the key has a decision already.
   * New: the write of both records is to be made. Known with the same context: a write that failed is to be made
   * again, and with {@code alwaysResend} the decision is to be sent again after the latest write. Known with
   * another context: nothing.
   */
  public synchronized Found rememberIfAbsent(Digest128 key, Logged candidate, byte[] logValue, long nowMillis,
      boolean alwaysResend) {
    evict(nowMillis);
    int slot = index.find(key.high(), key.low());
    if (slot < 0) {
      slot = add(key, candidate, nowMillis);
      Pending state = new Pending(logValue, new CompletableFuture<>());
      pending[slot] = state;
      return new Found(Outcome.CREATED, candidate, state.write, new Write(slot, state, ACKNOWLEDGED, logValue,
          state.write));
    }
    Logged known = read(slot);
    if (!known.context().equals(candidate.context())) {
      return new Found(Outcome.OTHER_CONTEXT, known, ACKNOWLEDGED, null);
    }
    Pending state = pending[slot];
    Write write = null;
    if (state != null && state.write.isCompletedExceptionally()) {
      write = new Write(slot, state, ACKNOWLEDGED, state.logValue, new CompletableFuture<>());
    } else if (alwaysResend) {
      if (state == null) {
        state = new Pending(null, ACKNOWLEDGED);
        pending[slot] = state;
      }
      write = new Write(slot, state, state.write, null, new CompletableFuture<>());
    }
    if (write != null) {
      state.write = write.done();
    }
    return new Found(Outcome.FOUND, known, state == null ? ACKNOWLEDGED : state.write, write);
  }

  /**
   * Records the outcome of a {@link Write} (before its {@code done} completes): on success the log record's bytes
   * are dropped if it carried them, and if it is still the decision's latest write the decision keeps no object
   * any more. A failed write stays, to be made again by the next {@link #rememberIfAbsent} of its key. Nothing
   * happens if the decision was dropped meanwhile.
   */
  public synchronized void settle(Write write, boolean succeeded) {
    Pending state = write.state();
    if (!succeeded || pending[write.slot()] != state) {
      return;
    }
    if (write.logValue() != null) {
      state.logValue = null;
    }
    if (state.write == write.done()) {
      pending[write.slot()] = null;
    }
  }

  /** Remembers a decision read back from the decision log (acknowledged), unless the key has one already. */
  public synchronized void restore(Digest128 key, Logged logged, long atMillis) {
    evict(atMillis);
    if (index.find(key.high(), key.low()) < 0) {
      add(key, logged, atMillis);
    }
  }

  /** The acknowledgement of the latest write of the key's decision (complete if none is under way or known). */
  public synchronized CompletableFuture<Void> written(Digest128 key) {
    int slot = index.find(key.high(), key.low());
    Pending state = slot < 0 ? null : pending[slot];
    return state == null ? ACKNOWLEDGED : state.write;
  }

  /** The key's remembered decision, or null. */
  synchronized Logged get(Digest128 key) {
    int slot = index.find(key.high(), key.low());
    return slot < 0 ? null : read(slot);
  }

  public synchronized int size() {
    return size;
  }

  /** Decisions that hold an object: their write is under way or failed. */
  public synchronized int pendingCount() {
    int count = 0;
    for (Pending state : pending) {
      count += state == null ? 0 : 1;
    }
    return count;
  }

  private int add(Digest128 key, Logged logged, long nowMillis) {
    if (size == capacity) {
      dropOldest();
    }
    int slot = (oldest + size) % capacity;
    size++;
    index.add(key.high(), key.low(), slot);
    rememberedAt[slot] = nowMillis;
    arm[slot] = logged.arm();
    modelStep[slot] = logged.modelStep();
    phase[slot] = (byte) logged.phase().ordinal();
    timestamp[slot] = logged.timestamp();
    contextHigh[slot] = logged.context().high();
    contextLow[slot] = logged.context().low();
    return slot;
  }

  private Logged read(int slot) {
    return new Logged(arm[slot], modelStep[slot], PHASES[phase[slot]], timestamp[slot],
        new Digest128(contextHigh[slot], contextLow[slot]));
  }

  private void evict(long nowMillis) {
    while (size > 0 && rememberedAt[oldest] < nowMillis - windowMillis) {
      dropOldest();
    }
  }

  private void dropOldest() {
    index.remove(oldest);
    pending[oldest] = null;
    oldest = (oldest + 1) % capacity;
    size--;
  }
}
