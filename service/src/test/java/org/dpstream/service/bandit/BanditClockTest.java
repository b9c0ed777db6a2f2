package org.dpstream.service.bandit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/** A bandit's stream time: never back, stored as it moves, resumed from the store. */
class BanditClockTest {

  private final KeyValueStore<String, Long> store = BanditStores.longs(BanditTopology.CLOCK_STORE);

  @Test
  void aClockNeverGoesBackAndResumesWhereItWasStored() {
    BanditClock clock = BanditClock.load("b", store);
    assertEquals(Long.MIN_VALUE, clock.time(), "no record yet: before every timestamp");
    assertNull(store.get("b"));
    clock.advanceTo(1_000);
    clock.advanceTo(400);
    assertEquals(1_000, clock.time(), "an older record leaves the clock where it is");
    assertEquals(1_000L, store.get("b"));
    clock.advanceTo(1_001);
    assertEquals(1_001, BanditClock.load("b", store).time(), "a reloaded clock resumes the stored time");
    assertEquals(Long.MIN_VALUE, BanditClock.load("other", store).time(), "each bandit has its own clock");
  }
}
