package org.dpstream.service.contribution;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueStore;
import org.dpstream.core.privacy.random.NoiseKeyRing;

/**
 * How many samples (rounds) each person has contributed to a unit (a model or a bandit), kept in the unit's own state
 * store beside its state, so that a count and the step it allowed commit in one exactly-once transaction and a
 * replayed record is counted exactly as often as it is learnt: once.
 *
 * <p>A person is stored under a keyed pseudonym ({@link NoiseKeyRing#personPseudonyms}), never under its id: the
 * store, its changelog and every message hold the pseudonym only. A count found under a retired key's pseudonym is
 * moved to the primary key's when the person next contributes. The counts' keys start with a NUL character, which no
 * unit id may ({@link #requireUnitId}), so they are never taken for a unit's state.
 *
 * <p>Value format: a version byte (1) and the count (int, big-endian).
 */
public final class ContributionCounts {

  /** The first characters of every count's key in a unit's store. */
  public static final String KEY_PREFIX = "\u0000contributions\u0000";

  private static final byte VERSION = 1;

  private final KeyValueStore<String, byte[]> store;
  private final NoiseKeyRing keys;

  public ContributionCounts(KeyValueStore<String, byte[]> store, NoiseKeyRing keys) {
    this.store = store;
    this.keys = keys;
  }

  /** Whether a key of a unit's store is a count (not a unit's state). */
  public static boolean isCount(String storeKey) {
    return storeKey != null && storeKey.startsWith(KEY_PREFIX);
  }

  /**
   * A unit id as a store key: it must not start with NUL, the counts' prefix.
   *
   * @throws IllegalArgumentException otherwise
   */
  public static String requireUnitId(String id) {
    if (id != null && id.startsWith("\u0000")) {
      throw new IllegalArgumentException("an id must not start with a NUL character (the store keeps its contribution"
          + " counts under such keys)");
    }
    return id;
  }

  /** A person's contributions to a unit so far, and where they are stored. */
  public static final class Contributor {
    private final String key;
    private final int count;
    private final List<String> retiredKeys;

    private Contributor(String key, int count, List<String> retiredKeys) {
      this.key = key;
      this.count = count;
      this.retiredKeys = retiredKeys;
    }

    /** The samples (rounds) the person has contributed so far. */
    public int count() {
      return count;
    }
  }

  /** The person's count in the unit (0 if never seen), under any key of the ring. */
  public Contributor find(String unitId, String personId) {
    List<byte[]> pseudonyms = keys.personPseudonyms(unitId, personId);
    String primaryKey = key(unitId, pseudonyms.get(0));
    int count = read(store.get(primaryKey));
    List<String> retired = new ArrayList<>();
    for (byte[] pseudonym : pseudonyms.subList(1, pseudonyms.size())) {
      String retiredKey = key(unitId, pseudonym);
      byte[] stored = store.get(retiredKey);
      if (stored != null) {
        count = Math.max(count, read(stored));
        retired.add(retiredKey);
      }
    }
    return new Contributor(primaryKey, count, List.copyOf(retired));
  }

  /** One more contribution of {@code contributor}, stored under the primary key's pseudonym. */
  public void add(Contributor contributor) {
    store.put(contributor.key, ByteBuffer.allocate(5).put(VERSION).putInt(Math.addExact(contributor.count, 1)).array());
    contributor.retiredKeys.forEach(store::delete);
  }

  private static String key(String unitId, byte[] pseudonym) {
    return KEY_PREFIX + unitId + "\u0000" + HexFormat.of().formatHex(pseudonym);
  }

  private static int read(byte[] stored) {
    if (stored == null) {
      return 0;
    }
    if (stored.length != 5 || stored[0] != VERSION) {
      // A count this build cannot read must not be taken for 0: that would let the person contribute again.
      throw new IllegalStateException("a contribution count of version " + (stored.length == 0 ? "?" : stored[0])
          + " and " + stored.length + " bytes: this build reads version " + VERSION);
    }
    return ByteBuffer.wrap(stored, 1, 4).getInt();
  }
}
