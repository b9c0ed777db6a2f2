package org.dpstream.service.noise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.core.privacy.random.KeyCheck;
import org.dpstream.core.state.VersionedState;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.PrivacyLedger;
import org.dpstream.service.release.NoiseGeneration;
import org.dpstream.service.release.PublishedReleases;
import org.dpstream.service.routing.PlacedState;
import org.dpstream.service.routing.Placement;
import org.dpstream.service.serde.DpSerdes;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Placed states loaded, admitted or refused, restored, written back stamped; rejections with their reason. */
class PlacedStateStoreTest {

  private static final String ID = "m";
  private static final int PARTITIONS = 4;
  private static final Placement HOME = Placement.of(ID, PARTITIONS);
  private static final KeyedNoiseSource KEY = new KeyedNoiseSource(NoiseKey.ofBytes(new byte[32]));

  /** A live state whose step is its first byte. */
  private record Counter(byte[] state, boolean restored) {}

  private final List<String> rejections = new ArrayList<>();
  private int loads;
  private KeyValueStore<String, byte[]> store;

  private static final PlacedStateStore.Restorer<Counter> COUNTERS = new PlacedStateStore.Restorer<>() {
    @Override
    public Counter restore(byte[] state, NoiseKeyRing keys) throws IOException {
      if (state.length == 0) {
        throw new IOException("empty state");
      }
      return new Counter(state, true);
    }

    @Override
    public Counter start(NoiseKeyRing keys) {
      return new Counter(new byte[] {0}, false);
    }

    @Override
    public long step(Counter live) {
      return live.state()[0];
    }
  };

  @BeforeEach
  void openStore() {
    store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("model-state"), Serdes.String(), Serdes.ByteArray())
        .withLoggingDisabled().build();
    store.init(new MockProcessorContext<>().getStateStoreContext(), store);
  }

  private PlacedStateStore started(PublishedReleases published) {
    PlacedStateStore states = new PlacedStateStore(
        new NoiseContext(NoiseKeyRing.of(KEY), published, new RefusedStates(), new BoundKeys()), "model", PARTITIONS);
    states.start(store);
    return states;
  }

  private Counter admit(PlacedStateStore states) {
    return states.admit(ID, () -> {
      loads++;
      return states.load(ID, HOME, ID, 0, COUNTERS).live();
    }, (reason, message) -> rejections.add(reason + ": " + message));
  }

  private static PublishedReleases publishedUpTo(long step) {
    PublishedReleases published = PublishedReleases.empty();
    PrivacyLedger ledger = new PrivacyLedger(1.0, 1e-5, "zcdp", 100L, 0L, 0.5, 1e-6, 0, null, null, null, null);
    published.add(ID, DpSerdes.modelRelease().encode(
        new ModelRelease(ID, step, 0L, List.of(0.0), "dp-tofw", 1.5, ledger)));
    return published;
  }

  @Test
  void aWrittenStateIsStoredStampedAndResumedAsWritten() {
    PlacedStateStore states = started(PublishedReleases.empty());
    Counter fresh = admit(states);
    assertTrue(!fresh.restored() && rejections.isEmpty(), "no state: a new one starts");
    states.write(ID, HOME, NoiseGeneration.FIRST, out -> out.write(new byte[] {7, 8, 9}));
    assertArrayEquals(new byte[] {7, 8, 9}, PlacedState.open(ID, HOME, store.get(ID)), "stamped with its placement");
    Counter resumed = admit(started(publishedUpTo(7)));
    assertTrue(resumed.restored());
    assertArrayEquals(new byte[] {7, 8, 9}, resumed.state());
  }

  @Test
  void aWrittenStateIsCountedUnderTheKeyItsHeaderNamesInEveryNoiseGeneration() throws IOException {
    for (int generation : new int[] {0, 3}) {
      BoundKeys bound = new BoundKeys();
      PlacedStateStore states = new PlacedStateStore(new NoiseContext(NoiseKeyRing.of(KEY), PublishedReleases.empty(),
          new RefusedStates(), bound), "model", PARTITIONS);
      states.start(store);
      KeyCheck key = KEY.keyCheckAt(0);
      states.write(ID, HOME, new NoiseGeneration(generation, 0, 0),
          out -> VersionedState.writeHeader(out, (byte) 1, new byte[] {5, 5}, key, 0, new byte[] {6}));
      assertEquals(1, bound.count(key), "generation " + generation);
      assertEquals(generation, PlacedState.openStamped(ID, HOME, store.get(ID)).generation());
    }
  }

  @Test
  void aStateOfAnotherPlacementIsRejectedEachTimeAndNotRemembered() {
    Placement elsewhere = new Placement((HOME.partition() + 1) % PARTITIONS, PARTITIONS);
    store.put(ID, PlacedState.stamp(elsewhere, new byte[] {1}));
    PlacedStateStore states = started(PublishedReleases.empty());
    assertNull(admit(states));
    assertNull(admit(states));
    assertEquals(2, loads, "a misplaced state is looked at again on each record");
    assertEquals(2, rejections.size());
    assertTrue(rejections.get(0).startsWith(PlacedStateStore.MISPLACED_STATE + ": "), rejections.get(0));
  }

  @Test
  void aRefusedStateIsRejectedWithItsReasonAndRememberedWithoutLoadingAgain() {
    PlacedStateStore states = started(publishedUpTo(10)); // published, but no state here: lost
    assertNull(admit(states));
    assertNull(admit(states));
    assertEquals(1, loads, "the second record is rejected from the remembered refusal");
    assertEquals(2, rejections.size());
    assertTrue(rejections.stream().allMatch(r -> r.startsWith(StateRefusal.STATE_LOST.name() + ": model m ")),
        rejections.toString());
    states.close();
    states.start(store);
    assertNull(admit(states));
    assertEquals(2, loads, "a restarted task looks again");
  }

  @Test
  void aStateBehindItsReleasesIsRefused() {
    store.put(ID, PlacedState.stamp(HOME, new byte[] {3}));
    assertNull(admit(started(publishedUpTo(5))));
    assertTrue(rejections.get(0).startsWith(StateRefusal.STATE_BEHIND_RELEASES.name()), rejections.toString());
    rejections.clear();
    store.put(ID, PlacedState.stamp(HOME, new byte[] {5}));
    assertEquals(5, admit(started(publishedUpTo(5))).state()[0], "a state at its newest release resumes");
    assertTrue(rejections.isEmpty());
  }

  @Test
  void aStateThisBuildCannotReadStopsLoudlyRatherThanStartingOver() {
    store.put(ID, PlacedState.stamp(HOME, new byte[0]));
    PlacedStateStore states = started(PublishedReleases.empty());
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> admit(states));
    assertEquals("cannot resume model m: empty state", e.getMessage());
  }
}
