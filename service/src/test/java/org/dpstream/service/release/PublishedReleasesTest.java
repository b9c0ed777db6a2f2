package org.dpstream.service.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.PrivacyLedger;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.OutputFormat;
import org.junit.jupiter.api.Test;

/** What dp.releases says each model published, by noise generation, from its records in the topic's order. */
class PublishedReleasesTest {

  private static byte[] release(String model, long step, Integer generation, double epsilonSpent, double deltaSpent) {
    return release(model, step, generation, epsilonSpent, deltaSpent, null, null);
  }

  private static byte[] release(String model, long step, Integer generation, double epsilonSpent, double deltaSpent,
      Double earlierEpsilon, Double earlierDelta) {
    PrivacyLedger ledger = new PrivacyLedger(1.0, 1e-5, "zcdp", 100L, 0L, epsilonSpent, deltaSpent, generation,
        earlierEpsilon, earlierDelta, null, null);
    return DpSerdes.modelRelease().encode(new ModelRelease(model, step, 0L, List.of(0.0), "dp-tofw", 1.5, ledger));
  }

  @Test
  void theNewestReleaseOfAKeySaysItsGenerationStepAndWhatEveryGenerationSpent() {
    PublishedReleases published = PublishedReleases.empty();
    published.add("m", release("m", 1, null, 0.1, 1e-7));
    published.add("m", release("m", 2, null, 0.2, 2e-7));
    assertEquals(OptionalLong.of(2), published.newestStep("m", 0));
    assertEquals(new NoiseGeneration(1, 0.2, 2e-7), published.generation("m", 1), "generation 0's spend, stated");
    published.add("m", release("m", 1, 1, 0.05, 1e-7, 0.2, 2e-7));
    published.add("m", release("m", 3, 1, 0.3, 3e-7, 0.2, 2e-7));
    published.add("other", DpSerdes.modelRelease().writing(OutputFormat.JSON)
        .serialize("dp.releases", DpSerdes.modelRelease().decodeOrThrow(release("other", 7, 0, 0.7, 0))));
    assertEquals(OptionalInt.of(1), published.newestGeneration("m"));
    assertEquals(OptionalLong.empty(), published.newestStep("m", 0), "generation 0 is over");
    assertEquals(OptionalLong.of(3), published.newestStep("m", 1));
    assertEquals(OptionalLong.empty(), published.newestStep("m", 2));
    assertEquals(OptionalLong.of(7), published.newestStep("other", 0), "JSON releases count too");
    assertEquals(new NoiseGeneration(1, 0.2, 2e-7), published.generation("m", 1));
    NoiseGeneration third = published.generation("m", 2);
    assertTrue(third.earlierEpsilon() >= 0.2 + 0.3 && third.earlierEpsilon() <= Math.nextUp(0.5),
        "added and rounded up: " + third.earlierEpsilon());
    assertEquals(third.earlierEpsilon(), published.generation("m", 5).earlierEpsilon(),
        "skipped generations published nothing");
    assertThrows(IllegalArgumentException.class, () -> published.generation("m", 0));
    assertEquals(OptionalInt.empty(), published.newestGeneration("never"));
    assertEquals(new NoiseGeneration(3, 0, 0), published.generation("never", 3));
  }

  @Test
  void undecodableRecordsAndTombstonesAreNotCountedAsPublished() {
    PublishedReleases published = PublishedReleases.empty();
    published.add("m", "not a release".getBytes(StandardCharsets.UTF_8));
    published.add("m", null);
    published.add(null, release("m", 4, null, 0.1, 0));
    assertEquals(OptionalInt.empty(), published.newestGeneration("m"));
    assertEquals(3, published.records());
  }
}
