package org.dpstream.service.bandit;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * One bandit's deadline index in {@value BanditTopology#DEADLINES_STORE}: {@code banditId NUL hex(time)} and the
 * request ({@link RequestKey#indexKey}) for every request's next due time (its deadline while pending, its purge
 * time after), and the expiry that hands what is due to its owner in (due time, request) order. Keeps in memory a
 * lower bound of the due times in the index, derived from the index when loaded.
 */
final class Deadlines {

  private static final char SEPARATOR = '\u0000';
  private static final byte[] PRESENT = {1};

  private final String banditId;
  private final KeyValueStore<String, byte[]> store;
  private long nextDue;

  /** A request due: which one, and its entry in the index. */
  record Due(RequestKey request, String indexKey) {}

  private Deadlines(String banditId, KeyValueStore<String, byte[]> store, long nextDue) {
    this.banditId = banditId;
    this.store = store;
    this.nextDue = nextDue;
  }

  /** The bandit's index as stored. */
  static Deadlines load(String banditId, KeyValueStore<String, byte[]> store) {
    return new Deadlines(banditId, store, firstDue(banditId, store));
  }

  private static long firstDue(String banditId, KeyValueStore<String, byte[]> store) {
    try (KeyValueIterator<String, byte[]> it = store.range(banditId + SEPARATOR, banditId + '\u0001')) {
      if (!it.hasNext()) {
        return Long.MAX_VALUE;
      }
      String key = it.next().key;
      int from = banditId.length() + 1;
      return Long.parseUnsignedLong(key.substring(from, from + 16), 16);
    }
  }

  /** {@code request} is due at {@code dueAt}. */
  void index(RequestKey request, long dueAt) {
    store.put(request.indexKey(banditId, dueAt), PRESENT);
    nextDue = Math.min(nextDue, dueAt);
  }

  /** {@code request} is no longer due at {@code dueAt}. */
  void remove(RequestKey request, long dueAt) {
    store.delete(request.indexKey(banditId, dueAt));
  }

  void remove(Due due) {
    store.delete(due.indexKey());
  }

  /**
   * Hands every request due by {@code now} to {@code expire}, in (due time, request) order; what {@code expire}
   * indexes as due by {@code now} (a completion marker whose purge time has passed too) is handed over in a further
   * pass, until nothing is due. {@code expire} removes or re-indexes each request it is handed.
   */
  void expireDue(long now, Consumer<Due> expire) {
    while (nextDue <= now) {
      List<Due> due = new ArrayList<>();
      // nextDue is a lower bound of every due time in the index, so the scan starts there, not at the
      // bandit's first key: Kafka Streams' record cache copies every cached key of a range before iterating
      // it, and RocksDB steps over the tombstones of every request completed since its last compaction, so
      // a scan from the first key cost time proportional to the requests in flight on every record
      // (docs/bandit-decider.md, "The bandit slowed the models").
      try (KeyValueIterator<String, byte[]> it = store.range(RequestKey.indexPrefix(banditId, nextDue),
          RequestKey.indexEnd(banditId, now))) {
        while (it.hasNext()) {
          String key = it.next().key;
          due.add(new Due(RequestKey.ofIndexKey(banditId, key), key));
        }
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
