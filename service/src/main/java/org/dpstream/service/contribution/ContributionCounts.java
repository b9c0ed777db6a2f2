package org.dpstream.service.contribution;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.streams.state.KeyValueStore;
import org.dpstream.core.privacy.random.KeyCheck;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.service.noise.RefusedStateException;
import org.dpstream.service.noise.StateRefusal;

/**
 * How many samples (rounds) each person has contributed to a unit (a model or a bandit), kept in the unit's own state
 * store beside its state, so that a count and the step it allowed commit in one exactly-once transaction and a
 * replayed record is counted exactly as often as it is learnt: once.
 *
 * <p>A person is stored under a keyed pseudonym ({@link NoiseKeyRing#personPseudonyms}), never under its id: the
 * store, its changelog and every message hold the pseudonym only. A count found under a retired key's pseudonym is
 * moved to the primary key's when the person next contributes. A person not seen since a rotation keeps the count
 * under the old key's pseudonym, which only that key finds: so the unit also records every key its counts were made
 * under, and a unit one of whose keys is missing from the ring is refused ({@code NOISE_KEY_MISMATCH}), never taken
 * to have no counts. The counts' keys start with a NUL character, which no unit id may ({@link #requireUnitId}), so
 * they are never taken for a unit's state.
 *
 * <p>Value formats: a count is a version byte (1) and the count (int, big-endian); a unit's keys are a version byte
 * (1) and their check values, 16 hex digits each, comma-separated (UTF-8).
 */
public final class ContributionCounts {

  /** The first characters of every count's key in a unit's store. */
  public static final String KEY_PREFIX = "\u0000contributions\u0000";
  /** The first characters of the key under which a unit records the keys its counts were made under. */
  public static final String UNIT_KEYS_PREFIX = "\u0000contribution-keys\u0000";

  private static final byte VERSION = 1;
  private static final char VERSION_CHAR = (char) VERSION;

  private final KeyValueStore<String, byte[]> store;
  private final NoiseKeyRing keys;

  public ContributionCounts(KeyValueStore<String, byte[]> store, NoiseKeyRing keys) {
    this.store = store;
    this.keys = keys;
  }

  /** Whether a key of a unit's store is a count or a unit's record of keys (not a unit's state). */
  public static boolean isCount(String storeKey) {
    return storeKey != null && (storeKey.startsWith(KEY_PREFIX) || storeKey.startsWith(UNIT_KEYS_PREFIX));
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
    private final String unitId;
    private final Set<String> usedKeys;
    private final String key;
    private final int count;
    private final List<String> retiredKeys;

    private Contributor(String unitId, Set<String> usedKeys, String key, int count, List<String> retiredKeys) {
      this.unitId = unitId;
      this.usedKeys = usedKeys;
      this.key = key;
      this.count = count;
      this.retiredKeys = retiredKeys;
    }

    /** The samples (rounds) the person has contributed so far. */
    public int count() {
      return count;
    }
  }

  /**
   * The person's count in the unit (0 if never seen), under any key of the ring.
   *
   * @throws RefusedStateException if the unit has counts made under a key the ring no longer holds: a person counted
   *     under it would be found with 0
   */
  public Contributor find(String unitId, String personId) {
    Set<String> used = requireKeysOf(unitId);
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
    return new Contributor(unitId, used, primaryKey, count, List.copyOf(retired));
  }

  /** One more contribution of {@code contributor}, stored under the primary key's pseudonym. */
  public void add(Contributor contributor) {
    // The keys read by find, in the same task and transaction: no second read of the store.
    Set<String> used = new LinkedHashSet<>(contributor.usedKeys);
    if (used.add(keys.primary().keyCheck().hex())) {
      store.put(UNIT_KEYS_PREFIX + contributor.unitId,
          (VERSION_CHAR + String.join(",", used)).getBytes(StandardCharsets.UTF_8));
    }
    store.put(contributor.key, ByteBuffer.allocate(5).put(VERSION).putInt(Math.addExact(contributor.count, 1)).array());
    contributor.retiredKeys.forEach(store::delete);
  }

  private Set<String> requireKeysOf(String unitId) {
    Set<String> used = keysOf(unitId);
    for (String check : used) {
      KeyCheck key = KeyCheck.parse(check);
      if (!key.equals(keys.primary().keyCheck()) && !keys.isRetired(key)) {
        throw new RefusedStateException(StateRefusal.NOISE_KEY_MISMATCH, unitId + " counts its persons'"
            + " contributions under noise key " + check + " too, which is not in the key ring: without it a person"
            + " counted under it would contribute again. Add the key back as a retired key (DPSTREAM_NOISE_KEY_RETIRED)");
      }
    }
    return used;
  }

  /** The check values of the keys the unit's counts were made under, in the order first used. */
  private Set<String> keysOf(String unitId) {
    byte[] stored = store.get(UNIT_KEYS_PREFIX + unitId);
    Set<String> checks = new LinkedHashSet<>();
    if (stored == null) {
      return checks;
    }
    String text = new String(stored, StandardCharsets.UTF_8);
    if (text.isEmpty() || text.charAt(0) != VERSION_CHAR) {
      throw new IllegalStateException("a record of contribution keys this build cannot read (version "
          + (text.isEmpty() ? "?" : (int) text.charAt(0)) + "; this build reads version " + VERSION + ")");
    }
    for (String check : text.substring(1).split(",")) {
      if (!check.isEmpty()) {
        checks.add(check);
      }
    }
    return checks;
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
