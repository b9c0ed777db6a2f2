package org.dpstream.service.bandit;

import static org.dpstream.service.bandit.BanditTopologyTest.context;
import static org.dpstream.service.bandit.BanditTopologyTest.reward;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueStore;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.service.metrics.BanditMetrics;
import org.dpstream.service.noise.BoundKeys;
import org.dpstream.service.noise.NoiseContext;
import org.dpstream.service.noise.RefusedStates;
import org.dpstream.service.release.PublishedReleases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A bandit whose state is bound to a key the process does not hold is stopped loudly, as a model is. */
class BanditStateRefusalTest {

  private static final String BANDIT = "drop-bandit";
  private static final KeyedNoiseSource A = new KeyedNoiseSource(BanditTopologyTest.key());
  private static final KeyedNoiseSource B = new KeyedNoiseSource(NoiseKey.ofBytes(
      HexFormat.of().parseHex("a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf")));

  @TempDir Path stateDir;

  private BanditDriver driver(String dir, NoiseContext noise) {
    return new BanditDriver(stateDir.resolve(dir), "bandit-test", BanditMetrics.NONE, 1,
        BanditTopology.Deciding.IN_TOPOLOGY, noise);
  }

  private static void round(BanditDriver driver, int i) {
    driver.context(BANDIT, 1_000L * i, "req-" + i, context(i));
    driver.reward(BANDIT, 1_000L * i + 10, "req-" + i, reward(i));
  }

  @Test
  void aBanditStateOfAnotherKeyIsRefusedAndResumesUnderTheRetiredKey() {
    byte[] stored;
    List<ModelRelease> straight;
    try (BanditDriver first = driver("first", NoiseContext.of(A))) {
      for (int i = 1; i <= 5; i++) {
        round(first, i);
      }
      straight = first.releases.readValuesToList();
    }
    try (BanditDriver first = driver("again", NoiseContext.of(A))) {
      for (int i = 1; i <= 3; i++) {
        round(first, i);
      }
      stored = first.driver.<String, byte[]>getKeyValueStore(BanditTopology.STATE_STORE).get(BANDIT);
    }
    NoiseContext underB = new NoiseContext(NoiseKeyRing.of(B), PublishedReleases.empty(), new RefusedStates(),
        new BoundKeys());
    try (BanditDriver second = driver("second", underB)) {
      KeyValueStore<String, byte[]> states = second.driver.getKeyValueStore(BanditTopology.STATE_STORE);
      states.put(BANDIT, stored);
      round(second, 4);
      List<RejectedRecord> rejected = second.rejected.readValuesToList();
      assertEquals(List.of("NOISE_KEY_MISMATCH", "NOISE_KEY_MISMATCH"),
          rejected.stream().map(RejectedRecord::getReason).toList(), "its context and its reward");
      assertTrue(rejected.get(0).getMessage().contains("bandit " + BANDIT)
          && rejected.get(0).getMessage().contains(A.keyCheck().hex()), rejected.get(0).getMessage());
      assertTrue(second.decisions.isEmpty() && second.releases.isEmpty());
      assertArrayEquals(stored, states.get(BANDIT), "the store keeps the state as it was");
      assertEquals(1, underB.refused().readinessProblems().size());
      assertTrue(underB.refused().readinessProblems().get(0).startsWith("bandit " + BANDIT + " refused"));
    }
    try (BanditDriver third = driver("third", NoiseContext.of(NoiseKeyRing.of(B, List.of(A))))) {
      third.driver.<String, byte[]>getKeyValueStore(BanditTopology.STATE_STORE).put(BANDIT, stored);
      round(third, 4);
      round(third, 5);
      List<ModelRelease> released = third.releases.readValuesToList();
      assertEquals(straight.subList(straight.size() - released.size(), straight.size()), released,
          "rounds 4 and 5 as if the key had never changed (the arms' epoch has not ended)");
    }
  }
}
