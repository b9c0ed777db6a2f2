package org.dpstream.app.decide;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The decisions this instance made or logged recently, by (bandit id, request id), so that a request id
 * decided twice (a client's retry, a replayed context) gets the first decision back. Kept for a window
 * of time (the bandits' longest reward timeout: after it the topology has expired the request anyway)
 * and at most {@code capacity} entries, oldest dropped first. Thread-safe.
 */
final class DecisionMemory<V> {

  private final long windowMillis;
  private final int capacity;
  private final LinkedHashMap<String, Entry<V>> entries = new LinkedHashMap<>();

  private record Entry<V>(V value, long at) {}

  DecisionMemory(long windowMillis, int capacity) {
    this.windowMillis = windowMillis;
    this.capacity = capacity;
  }

  static String key(String banditId, String requestId) {
    return banditId + '\u0000' + requestId;
  }

  /** The remembered value of the key, or {@code create}'s, remembered now; a flag says which. */
  synchronized Remembered<V> rememberIfAbsent(String key, long nowMillis, Supplier<V> create) {
    evict(nowMillis);
    Entry<V> known = entries.get(key);
    if (known != null) {
      return new Remembered<>(known.value(), false);
    }
    V value = create.get();
    entries.put(key, new Entry<>(value, nowMillis));
    return new Remembered<>(value, true);
  }

  synchronized V get(String key) {
    Entry<V> known = entries.get(key);
    return known == null ? null : known.value();
  }

  synchronized void put(String key, V value, long atMillis) {
    entries.putIfAbsent(key, new Entry<>(value, atMillis));
    evict(atMillis);
  }

  synchronized void forget(String key) {
    entries.remove(key);
  }

  synchronized int size() {
    return entries.size();
  }

  private void evict(long nowMillis) {
    Iterator<Map.Entry<String, Entry<V>>> it = entries.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<String, Entry<V>> oldest = it.next();
      if (entries.size() > capacity || oldest.getValue().at() < nowMillis - windowMillis) {
        it.remove();
      } else {
        break;
      }
    }
  }

  record Remembered<V>(V value, boolean created) {}
}
