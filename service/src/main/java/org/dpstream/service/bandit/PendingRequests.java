package org.dpstream.service.bandit;

import java.time.Duration;
import org.apache.kafka.streams.state.KeyValueStore;
import org.dpstream.bandit.Decision;

/**
 * The decided requests in {@value BanditTopology#PENDING_STORE} ({@link RequestKey#pendingKey} -&gt;
 * {@link PendingRequest}, or a {@link HeldReward} that came first) and how a reward meets its request: a pending
 * request joins it once; a completed one (joined, expired) refuses it until its marker is purged.
 */
final class PendingRequests {

  private final KeyValueStore<String, byte[]> store;

  PendingRequests(KeyValueStore<String, byte[]> store) {
    this.store = store;
  }

  /** What the store holds under a request's key: nothing, a reward held for it, or its decision. */
  sealed interface Slot permits Empty, Held, Decided {}

  record Empty() implements Slot {}

  record Held(HeldReward reward) implements Slot {}

  record Decided(PendingRequest request) implements Slot {}

  private static final Empty EMPTY = new Empty();

  /** How a reward meets its request: it joins the pending request, finds none, or is refused with the reason. */
  sealed interface RewardMatch permits Joins, NoRequest, Refused {}

  record Joins(PendingRequest request) implements RewardMatch {}

  record NoRequest() implements RewardMatch {}

  record Refused(BanditRejection reason, String message) implements RewardMatch {}

  private static final NoRequest NO_REQUEST = new NoRequest();

  Slot find(String banditId, RequestKey request) {
    byte[] stored = store.get(request.pendingKey(banditId));
    if (stored == null) {
      return EMPTY;
    }
    return HeldReward.isHeld(stored) ? new Held(HeldReward.decode(stored)) : new Decided(PendingRequest.decode(stored));
  }

  /** How a reward for {@code request} meets what the store holds for it. */
  RewardMatch match(String banditId, RequestKey request) {
    Slot slot = find(banditId, request);
    if (slot instanceof Empty) {
      return NO_REQUEST;
    }
    String requestId = request.requestId();
    if (slot instanceof Held) {
      return new Refused(BanditRejection.DUPLICATE_REWARD,
          "request " + requestId + " already has a reward waiting for its decision");
    }
    PendingRequest decided = ((Decided) slot).request();
    return switch (decided.status()) {
      case JOINED -> new Refused(BanditRejection.DUPLICATE_REWARD, "request " + requestId + " already has its reward");
      case EXPIRED -> new Refused(BanditRejection.EXPIRED_REQUEST,
          "request " + requestId + " expired before its reward came");
      case PENDING -> new Joins(decided);
    };
  }

  /**
   * The time a request of {@code timestamp} is due after {@code timeout}: its reward deadline (negative timestamps
   * count as 0; a sum past the last time is the last time).
   */
  static long dueAfter(long timestamp, Duration timeout) {
    return saturatedAdd(Math.max(0, timestamp), timeout.toMillis());
  }

  /** The pending request of {@code decision} on {@code context}: due at its deadline, purged a timeout later. */
  static PendingRequest pending(Decision decision, long timestamp, Duration timeout, double[] context) {
    long deadline = dueAfter(timestamp, timeout);
    return new PendingRequest(PendingRequest.Status.PENDING, decision.arm(), decision.phase(), decision.round(),
        Math.max(0, timestamp), deadline, saturatedAdd(deadline, timeout.toMillis()), context);
  }

  /** Keeps {@code pending} until its reward comes or its deadline passes. */
  void keep(String banditId, RequestKey request, PendingRequest pending, Deadlines deadlines) {
    store.put(request.pendingKey(banditId), pending.encode());
    deadlines.index(request, pending.deadline());
  }

  /** The pending request becomes a completion marker (context dropped), due for purging at its purge time. */
  void complete(String banditId, RequestKey request, PendingRequest pending, PendingRequest.Status outcome,
      Deadlines deadlines) {
    deadlines.remove(request, pending.dueAt());
    PendingRequest done = pending.completed(outcome);
    store.put(request.pendingKey(banditId), done.encode());
    deadlines.index(request, done.dueAt());
  }

  /** Whatever the store holds for {@code request} is gone. */
  void remove(String banditId, RequestKey request) {
    store.delete(request.pendingKey(banditId));
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }
}
