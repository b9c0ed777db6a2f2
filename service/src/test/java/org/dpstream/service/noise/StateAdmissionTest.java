package org.dpstream.service.noise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.PrivacyLedger;
import org.dpstream.service.release.NoiseGeneration;
import org.dpstream.service.release.PublishedReleases;
import org.dpstream.service.routing.PlacedState;
import org.dpstream.service.serde.DpSerdes;
import org.junit.jupiter.api.Test;

/** A state resumes, a new one starts, or the model stops: from its generation, its state and its releases. */
class StateAdmissionTest {

  private static final byte[] STATE = {1, 2, 3};

  private static PublishedReleases published(int generation, long step) {
    PublishedReleases published = PublishedReleases.empty();
    PrivacyLedger ledger = new PrivacyLedger(1.0, 1e-5, "zcdp", 100L, 0L, 0.5, 1e-6, generation, null, null, null, null);
    published.add("m", DpSerdes.modelRelease().encode(
        new ModelRelease("m", step, 0L, List.of(0.0), "dp-tofw", 1.5, ledger)));
    return published;
  }

  private static StateRefusal refusal(Runnable decision) {
    return assertThrows(RefusedStateException.class, decision::run).reason();
  }

  @Test
  void aStoredStateOfItsGenerationResumesAndNoStateStartsWhereNothingWasPublished() {
    StateAdmission.Decision resume = StateAdmission.decide("model m", "m", 0, new PlacedState.Opened(0, STATE),
        published(0, 10));
    assertArrayEquals(STATE, assertInstanceOf(StateAdmission.Resume.class, resume).state());
    assertEquals(NoiseGeneration.FIRST, resume.generation());
    assertInstanceOf(StateAdmission.Start.class,
        StateAdmission.decide("model m", "m", 0, null, PublishedReleases.empty()));
  }

  @Test
  void aLostStateIsRefusedAndANewGenerationStartsWithTheEarlierSpend() {
    assertEquals(StateRefusal.STATE_LOST,
        refusal(() -> StateAdmission.decide("model m", "m", 0, null, published(0, 10))));
    StateAdmission.Decision next = StateAdmission.decide("model m", "m", 1, null, published(0, 10));
    assertInstanceOf(StateAdmission.Start.class, next);
    assertEquals(new NoiseGeneration(1, 0.5, 1e-6), next.generation());
    StateAdmission.Decision replacing = StateAdmission.decide("model m", "m", 1, new PlacedState.Opened(0, STATE),
        published(0, 10));
    assertInstanceOf(StateAdmission.Start.class, replacing, "a declared generation replaces an older generation's state");
    assertEquals(StateRefusal.STATE_LOST, refusal(() -> StateAdmission.decide("model m", "m", 1,
        new PlacedState.Opened(0, STATE), published(1, 3))), "a generation that published needs its own state");
  }

  @Test
  void aGenerationBelowAPublishedOrStoredOneIsRefused() {
    assertEquals(StateRefusal.NOISE_GENERATION_MISMATCH,
        refusal(() -> StateAdmission.decide("model m", "m", 0, null, published(1, 3))));
    assertEquals(StateRefusal.NOISE_GENERATION_MISMATCH, refusal(() -> StateAdmission.decide("model m", "m", 0,
        new PlacedState.Opened(2, STATE), PublishedReleases.empty())));
  }

  @Test
  void aStateBehindItsGenerationsNewestReleaseIsRefused() {
    RefusedStateException behind = assertThrows(RefusedStateException.class,
        () -> StateAdmission.requireNotBehind("model m", "m", NoiseGeneration.FIRST, 7, published(0, 10)));
    assertEquals(StateRefusal.STATE_BEHIND_RELEASES, behind.reason());
    assertTrue(behind.getMessage().contains("step 7") && behind.getMessage().contains("step 10"), behind.getMessage());
    StateAdmission.requireNotBehind("model m", "m", NoiseGeneration.FIRST, 10, published(0, 10));
    StateAdmission.requireNotBehind("model m", "m", new NoiseGeneration(1, 0.5, 1e-6), 2, published(0, 10));
  }
}
