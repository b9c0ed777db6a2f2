package org.dpstream.service.bandit;

import java.time.Duration;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.SchemaSerde;

/**
 * Rewards that came before their decision ({@link HeldReward}), held in {@value BanditTopology#PENDING_STORE} under
 * their request's key and indexed at their timeout, until their decision comes (then joined) or the timeout passes
 * (then rejected as the record they came in, with the rejection they would have had on arrival).
 */
final class HeldRewards {

  private final KeyValueStore<String, byte[]> store;
  private final SchemaSerde<RejectedRecord> rejections = DpSerdes.rejectedRecord();

  HeldRewards(KeyValueStore<String, byte[]> store) {
    this.store = store;
  }

  /**
   * Holds {@code reward} of {@code timestamp} for {@code request} until {@code timeout} after it.
   *
   * @param rejectionKey the key its rejection carries (null for none)
   * @param rejection its rejection if its decision never comes
   */
  HeldReward hold(String banditId, RequestKey request, double reward, long timestamp, Duration timeout,
      String rejectionKey, RejectedRecord rejection, Deadlines deadlines) {
    long dueAt = PendingRequests.dueAfter(timestamp, timeout);
    HeldReward held = new HeldReward(reward, timestamp, dueAt, rejectionKey, rejections.encode(rejection));
    store.put(request.pendingKey(banditId), held.encode());
    deadlines.index(request, dueAt);
    return held;
  }

  /** {@code held} is no longer held: out of the index and the store. */
  void drop(String banditId, RequestKey request, HeldReward held, Deadlines deadlines) {
    deadlines.remove(request, held.dueAt());
    store.delete(request.pendingKey(banditId));
  }

  /** {@code held}'s rejection with {@code reason} and {@code message}, as the record it came in. */
  Record<String, Object> rejection(HeldReward held, String reason, String message) {
    RejectedRecord rejection = rejections.decodeOrThrow(held.rejection());
    rejection.setReason(reason);
    rejection.setMessage(message);
    return new Record<>(held.rejectionKey(), rejection, held.timestamp());
  }
}
