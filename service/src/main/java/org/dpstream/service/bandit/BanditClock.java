package org.dpstream.service.bandit;

import org.apache.kafka.streams.state.KeyValueStore;

/**
 * One bandit's stream time: the largest record timestamp of its contexts and rewards so far, kept in
 * {@value BanditTopology#CLOCK_STORE} (bandit id -&gt; time) so that a restored task resumes it. It never goes back:
 * a record older than the clock leaves it where it is.
 */
final class BanditClock {

  private final String banditId;
  private final KeyValueStore<String, Long> store;
  private long time;

  private BanditClock(String banditId, KeyValueStore<String, Long> store, long time) {
    this.banditId = banditId;
    this.store = store;
    this.time = time;
  }

  /** The bandit's clock as stored, or before every timestamp if it has none. */
  static BanditClock load(String banditId, KeyValueStore<String, Long> store) {
    Long stored = store.get(banditId);
    return new BanditClock(banditId, store, stored == null ? Long.MIN_VALUE : stored);
  }

  long time() {
    return time;
  }

  /** Moves the clock to {@code timestamp} if that is later (and stores it); an earlier one changes nothing. */
  void advanceTo(long timestamp) {
    if (timestamp > time) {
      time = timestamp;
      store.put(banditId, timestamp);
    }
  }
}
