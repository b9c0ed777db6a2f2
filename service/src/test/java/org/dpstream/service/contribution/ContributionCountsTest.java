package org.dpstream.service.contribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.service.noise.RefusedStateException;
import org.dpstream.service.noise.StateRefusal;
import org.dpstream.service.testing.TestNoiseKeys;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A person's count across a key rotation, counts beside states, and a count this build cannot read. */
class ContributionCountsTest {

  private static KeyedNoiseSource key(int seed) {
    return new KeyedNoiseSource(TestNoiseKeys.arithmetic(1, seed * 31));
  }

  private static final KeyedNoiseSource OLD = key(1);
  private static final KeyedNoiseSource NEW = key(2);

  private KeyValueStore<String, byte[]> store;

  @BeforeEach
  void openStore() {
    store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("model-state"), Serdes.String(), Serdes.ByteArray())
        .withLoggingDisabled().build();
    MockProcessorContext<Object, Object> context = new MockProcessorContext<>();
    store.init(context.getStateStoreContext(), store);
  }

  private Map<String, byte[]> entries() {
    Map<String, byte[]> all = new java.util.LinkedHashMap<>();
    try (KeyValueIterator<String, byte[]> it = store.all()) {
      while (it.hasNext()) {
        KeyValue<String, byte[]> entry = it.next();
        all.put(entry.key, entry.value);
      }
    }
    return all;
  }

  @Test
  void aCountFollowsThePersonAcrossAKeyRotationAndMovesToThePrimaryKey() {
    ContributionCounts before = new ContributionCounts(store, NoiseKeyRing.of(OLD));
    for (int n = 0; n < 3; n++) {
      before.add(before.find("m", "alice"));
    }
    assertEquals(3, before.find("m", "alice").count());
    ContributionCounts after = new ContributionCounts(store, NoiseKeyRing.of(NEW, List.of(OLD)));
    ContributionCounts.Contributor alice = after.find("m", "alice");
    assertEquals(3, alice.count(), "found under the retired key's pseudonym");
    after.add(alice);
    assertEquals(1, entries().keySet().stream().filter(key -> key.startsWith(ContributionCounts.KEY_PREFIX)).count(),
        "moved: the retired key's entry is gone");
    assertEquals(4, after.find("m", "alice").count());
  }

  /**
   * A person not seen since a rotation is counted under the old key only: a ring without it must not take the person
   * for new, so the model is refused until the key is back.
   */
  @Test
  void aModelWhoseCountsNeedAKeyMissingFromTheRingIsRefusedNotStartedOver() {
    ContributionCounts before = new ContributionCounts(store, NoiseKeyRing.of(OLD));
    before.add(before.find("m", "bob"));
    ContributionCounts rotated = new ContributionCounts(store, NoiseKeyRing.of(NEW, List.of(OLD)));
    rotated.add(rotated.find("m", "alice"));
    RefusedStateException refused = assertThrows(RefusedStateException.class,
        () -> new ContributionCounts(store, NoiseKeyRing.of(NEW)).find("m", "bob"));
    assertEquals(StateRefusal.NOISE_KEY_MISMATCH, refused.reason());
    assertTrue(refused.getMessage().contains(OLD.keyCheck().hex()), refused.getMessage());
    assertFalse(refused.getMessage().contains("bob"), refused.getMessage());
    assertThrows(RefusedStateException.class,
        () -> new ContributionCounts(store, NoiseKeyRing.of(NEW)).find("m", "carol"), "any person: bob may return");
    assertEquals(1, new ContributionCounts(store, NoiseKeyRing.of(NEW, List.of(OLD))).find("m", "bob").count(),
        "with the key back as retired, bob's count is found");
    assertEquals(0, new ContributionCounts(store, NoiseKeyRing.of(NEW)).find("n", "bob").count(),
        "another model without counts under the old key is not refused");
  }

  @Test
  void countsArePerModelUnderPrefixedKeysThatHoldNoId() {
    ContributionCounts counts = new ContributionCounts(store, NoiseKeyRing.of(OLD));
    counts.add(counts.find("m", "alice"));
    counts.add(counts.find("n", "alice"));
    counts.add(counts.find("m", "bob"));
    store.put("m", new byte[] {7}); // a model's state beside them
    assertEquals(1, counts.find("m", "alice").count());
    assertEquals(1, counts.find("n", "alice").count());
    assertEquals(0, counts.find("n", "bob").count());
    List<String> countKeys = new ArrayList<>();
    entries().keySet().forEach(key -> {
      if (ContributionCounts.isCount(key)) {
        countKeys.add(key);
      }
      assertFalse(key.contains("alice") || key.contains("bob"), key);
    });
    assertEquals(5, countKeys.size(), "three counts and each model's record of the key they were made under");
    assertFalse(ContributionCounts.isCount("m"));
    assertFalse(ContributionCounts.isCount(null));
  }

  @Test
  void aCountThisBuildCannotReadStopsInsteadOfStartingOver() {
    ContributionCounts counts = new ContributionCounts(store, NoiseKeyRing.of(OLD));
    counts.add(counts.find("m", "alice"));
    String key = entries().keySet().stream().filter(k -> k.startsWith(ContributionCounts.KEY_PREFIX)).findFirst()
        .orElseThrow();
    store.put(key, new byte[] {2, 0, 0, 0, 1});
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> counts.find("m", "alice"));
    assertTrue(e.getMessage().contains("version 2"), e.getMessage());
    assertFalse(e.getMessage().contains("alice"), e.getMessage());
  }

  @Test
  void unitIdsMustNotStartWithTheCountsPrefix() {
    assertEquals("m\u0000", ContributionCounts.requireUnitId("m\u0000"));
    assertNull(ContributionCounts.requireUnitId(null));
    assertThrows(IllegalArgumentException.class, () -> ContributionCounts.requireUnitId("\u0000m"));
  }
}
