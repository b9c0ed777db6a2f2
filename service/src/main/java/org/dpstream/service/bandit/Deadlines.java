package org.dpstream.service.bandit;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * One bandit's deadline index: every entry the bandit has in {@value BanditTopology#PENDING_STORE} (a pending
 * request at its deadline, a completion marker at its purge time, a held reward at its timeout), in (due time,
 * request) order, and the expiry that hands what is due to its owner in that order.
 *
 * <p>The index is in memory, derived from the pending store: every pending-store entry carries its due time, so the
 * index is a function of the store. {@link #load} rebuilds it from a scan of the bandit's pending entries whenever
 * the bandit is loaded (after Kafka Streams initialises the task, which it does again after reviving a task from a
 * dirty close under exactly-once, and after a failed record), and {@link PendingRequests} and {@link HeldRewards}
 * keep it in step with every pending-store write. Stored, it cost a logged RocksDB write and a changelog record for
 * each of its four changes per round; in memory it costs about 80 bytes plus the request's id per pending entry
 * (docs/bandit-decider.md, "The deadline index").
 */
final class Deadlines {

  private static final byte[] NO_REQUEST = {};

  private final NavigableSet<Entry> index = new TreeSet<>();
  /** A lower bound of the due times not yet handed over: where the next expiry starts. */
  private long nextDue = Long.MAX_VALUE;

  /** A request due: which one, and its due time. */
  record Due(RequestKey request, long dueAt) {}

  /**
   * An entry of the index: the due time, then the request's {@link RequestKey#scopedId} in UTF-8, compared as
   * unsigned bytes: the order of the keys of the index as it was stored ({@code banditId NUL hex(time)
   * scopedId}, in RocksDB's byte order), so that requests expire in the same order as they did.
   */
  private record Entry(long dueAt, byte[] request) implements Comparable<Entry> {
    @Override
    public int compareTo(Entry other) {
      int byTime = Long.compare(dueAt, other.dueAt);
      return byTime != 0 ? byTime : Arrays.compareUnsigned(request, other.request);
    }
  }

  private Deadlines() {}

  /** The bandit's index, rebuilt from what {@code pending} (the pending store) holds for it. */
  static Deadlines load(String banditId, KeyValueStore<String, byte[]> pending) {
    Deadlines deadlines = new Deadlines();
    try (KeyValueIterator<String, byte[]> it = pending.range(RequestKey.pendingStart(banditId),
        RequestKey.pendingEnd(banditId))) {
      while (it.hasNext()) {
        KeyValue<String, byte[]> stored = it.next();
        deadlines.index(RequestKey.ofPendingKey(banditId, stored.key), dueAt(stored.value));
      }
    }
    return deadlines;
  }

  /** The due time a pending-store value carries: a held reward's timeout, a request's deadline or purge time. */
  private static long dueAt(byte[] stored) {
    return HeldReward.isHeld(stored) ? HeldReward.decode(stored).dueAt() : PendingRequest.decode(stored).dueAt();
  }

  /** {@code request} is due at {@code dueAt}. */
  void index(RequestKey request, long dueAt) {
    index.add(new Entry(Math.max(0, dueAt), request.scopedIdBytes()));
    nextDue = Math.min(nextDue, Math.max(0, dueAt));
  }

  /** {@code request} is no longer due at {@code dueAt}. */
  void remove(RequestKey request, long dueAt) {
    index.remove(new Entry(Math.max(0, dueAt), request.scopedIdBytes()));
  }

  void remove(Due due) {
    remove(due.request(), due.dueAt());
  }

  /** How many entries the index holds. */
  int size() {
    return index.size();
  }

  /**
   * Hands every request due by {@code now} to {@code expire}, in (due time, request) order; what {@code expire}
   * indexes as due by {@code now} (a completion marker whose purge time has passed too) is handed over in a further
   * pass, until nothing is due. {@code expire} removes or re-indexes each request it is handed.
   */
  void expireDue(long now, Consumer<Due> expire) {
    while (nextDue <= now) {
      List<Due> due = new ArrayList<>();
      for (Entry entry : index.tailSet(new Entry(nextDue, NO_REQUEST), true)) {
        if (entry.dueAt() > now) {
          break;
        }
        due.add(new Due(RequestKey.ofScopedId(new String(entry.request(), StandardCharsets.UTF_8)),
            entry.dueAt()));
      }
      // Everything due by now is handed over below; index() lowers the bound again for a completion
      // marker already due.
      nextDue = now == Long.MAX_VALUE ? Long.MAX_VALUE : now + 1;
      if (due.isEmpty()) {
        break;
      }
      due.forEach(expire);
    }
  }
}
