package org.dpstream.service.topology;

import static org.dpstream.service.topology.ContinualReleaseTopologyTest.avro;
import static org.dpstream.service.topology.ContinualReleaseTopologyTest.key;
import static org.dpstream.service.topology.ContinualReleaseTopologyTest.parameters;
import static org.dpstream.service.topology.ContinualReleaseTopologyTest.stream;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.KeyValueStore;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.PrivacyLedger;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.noise.BoundKeys;
import org.dpstream.service.noise.NoiseContext;
import org.dpstream.service.noise.RefusedStates;
import org.dpstream.service.noise.StateRefusal;
import org.dpstream.service.release.PublishedReleases;
import org.dpstream.service.routing.PlacedState;
import org.dpstream.service.routing.Placement;
import org.dpstream.service.serde.DpSerdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model whose stored state its noise cannot continue is stopped loudly: each of its records is rejected with the
 * code and its original bytes, nothing is released, the store keeps the state, /ready names it. A state bound to a
 * retired key resumes; a lost one resumes only as a new noise generation.
 */
class StateRefusalTopologyTest {

  private static final KeyedNoiseSource A = new KeyedNoiseSource(TopologyFixture.key());
  private static final KeyedNoiseSource B = new KeyedNoiseSource(NoiseKey.ofBytes(
      HexFormat.of().parseHex("b0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c7c8c9cacbcccdcecf")));
  private static final ServiceConfig CONFIG = TopologyFixture.CONFIG;

  @TempDir Path stateDir;

  private static NoiseContext context(NoiseKeyRing keys, PublishedReleases published) {
    return new NoiseContext(keys, published, new RefusedStates(), new BoundKeys());
  }

  /** The stored value of model "linear" after {@code steps} samples under key A, and its releases. */
  private record Run(byte[] stored, List<ModelRelease> releases) {}

  private Run runUnderA(String dir, double[][] rows, int steps) {
    try (TopologyFixture first = new TopologyFixture(stateDir.resolve(dir), CONFIG, NoiseContext.of(A))) {
      for (int t = 0; t < steps; t++) {
        first.samples.pipeInput(key("linear"), avro(rows[t]));
      }
      KeyValueStore<String, byte[]> store = first.driver.getKeyValueStore(ContinualReleaseTopology.MODEL_STATE_STORE);
      return new Run(store.get("linear"), first.releases.readValuesToList());
    }
  }

  @Test
  void aStateOfAnotherKeyIsRefusedLoudlyAndResumesOnceItsKeyIsRetiredInTheRing() {
    double[][] rows = stream(12);
    List<ModelRelease> straight = runUnderA("straight", rows, 12).releases();
    Run saved = runUnderA("first", rows, 6);
    NoiseContext underB = context(NoiseKeyRing.of(B), PublishedReleases.empty());
    List<RejectedRecord> rejected;
    try (TopologyFixture second = new TopologyFixture(stateDir.resolve("second"), CONFIG, underB)) {
      KeyValueStore<String, byte[]> store = second.driver.getKeyValueStore(ContinualReleaseTopology.MODEL_STATE_STORE);
      store.put("linear", saved.stored());
      for (int t = 6; t < 9; t++) {
        second.samples.pipeInput(key("linear"), avro(rows[t]));
      }
      rejected = second.rejected.readValuesToList();
      assertEquals(List.of("NOISE_KEY_MISMATCH", "NOISE_KEY_MISMATCH", "NOISE_KEY_MISMATCH"),
          rejected.stream().map(RejectedRecord::getReason).toList());
      for (int i = 0; i < 3; i++) {
        assertArrayEquals(avro(rows[6 + i]), ContinualReleaseTopologyTest.bytes(rejected.get(i).getOriginalValue()),
            "the original bytes are kept for a replay");
      }
      String message = rejected.get(0).getMessage();
      assertTrue(message.contains("model linear") && message.contains(A.keyCheck().hex())
          && message.contains(B.keyCheck().hex()), message);
      assertTrue(second.releases.isEmpty(), "nothing is released for a refused model");
      assertArrayEquals(saved.stored(), store.get("linear"), "the store keeps the state as it was");
      List<String> problems = underB.refused().readinessProblems();
      assertEquals(1, problems.size(), problems.toString());
      assertTrue(problems.get(0).startsWith("model linear refused (NOISE_KEY_MISMATCH)"), problems.get(0));
    }
    assertTrue(underB.refused().readinessProblems().isEmpty(), "a closed task clears its refusals");

    NoiseContext rotated = context(NoiseKeyRing.of(B, List.of(A)), PublishedReleases.empty());
    try (TopologyFixture third = new TopologyFixture(stateDir.resolve("third"), CONFIG, rotated)) {
      KeyValueStore<String, byte[]> store = third.driver.getKeyValueStore(ContinualReleaseTopology.MODEL_STATE_STORE);
      store.put("linear", saved.stored());
      // The operator replays the rejected samples from dp.rejected, then the stream goes on.
      for (RejectedRecord replayed : rejected) {
        third.samples.pipeInput(key("linear"), ContinualReleaseTopologyTest.bytes(replayed.getOriginalValue()));
      }
      for (int t = 9; t < 12; t++) {
        third.samples.pipeInput(key("linear"), avro(rows[t]));
      }
      List<ModelRelease> released = third.releases.readValuesToList();
      assertEquals(List.of(7L, 8L, 9L, 10L, 11L, 12L), released.stream().map(ModelRelease::getStep).toList());
      for (int i = 0; i < released.size(); i++) {
        assertArrayEquals(parameters(straight.get(6 + i)), parameters(released.get(i)),
            "before its epoch boundary (horizon 64) the state draws under its retired key, as if never rotated");
      }
      assertEquals(1, rotated.bound().count(A.keyCheck()), "the gauge counts the state still bound to A");
      assertEquals(0, rotated.bound().count(B.keyCheck()));
    }
    assertEquals(0, rotated.bound().count(A.keyCheck()), "a closed task forgets its states");
  }

  @Test
  void aStateOfAnotherNoiseLawIsRefused() {
    double[][] rows = stream(4);
    byte[] stored = runUnderA("first", rows, 3).stored().clone();
    // The law digest ends the header: stamp (12), version, marker, fingerprint (length byte + 32), key, epoch, length.
    int law = 12 + 3 + 32 + 8 + 8 + 1;
    stored[law] ^= 1;
    try (TopologyFixture second = new TopologyFixture(stateDir.resolve("second"), CONFIG, NoiseContext.of(A))) {
      second.driver.<String, byte[]>getKeyValueStore(ContinualReleaseTopology.MODEL_STATE_STORE).put("linear", stored);
      second.samples.pipeInput(key("linear"), avro(rows[3]));
      RejectedRecord rejected = second.rejected.readValue();
      assertEquals(StateRefusal.NOISE_LAW_CHANGED.name(), rejected.getReason());
      assertTrue(rejected.getMessage().contains("noise law"), rejected.getMessage());
    }
  }

  /** What dp.releases says model "linear" published: {@code step} in {@code generation}, having spent eps 0.25. */
  private static PublishedReleases published(int generation, long step) {
    PublishedReleases published = PublishedReleases.empty();
    PrivacyLedger ledger = new PrivacyLedger(1.0, 1e-5, "zcdp", 64L, 0L, 0.25, 1e-6, generation, null, null, null, null);
    ModelRelease release = new ModelRelease("linear", step, 0L, List.of(0.0, 0.0, 0.0), "dp-tofw", 1.5, ledger);
    published.add("linear", DpSerdes.modelRelease().encode(release));
    return published;
  }

  @Test
  void aLostStateIsRefusedUntilANewNoiseGenerationIsDeclared() {
    double[][] rows = stream(30);
    List<ModelRelease> generationZero = runUnderA("zero", rows, rows.length).releases();
    NoiseContext lost = context(NoiseKeyRing.of(A), published(0, 40));
    try (TopologyFixture fixture = new TopologyFixture(stateDir.resolve("lost"), CONFIG, lost)) {
      fixture.samples.pipeInput(key("linear"), avro(rows[0]));
      RejectedRecord rejected = fixture.rejected.readValue();
      assertEquals(StateRefusal.STATE_LOST.name(), rejected.getReason());
      assertTrue(rejected.getMessage().contains("noiseGeneration 1"), rejected.getMessage());
      assertTrue(fixture.releases.isEmpty());
      assertNull(fixture.driver.<String, byte[]>getKeyValueStore(ContinualReleaseTopology.MODEL_STATE_STORE)
          .get("linear"), "no state is started");
    }
    ServiceConfig next = new ServiceConfig("dpstream-test", null, List.of(TopologyFixture.LINEAR.withNoiseGeneration(1)),
        Map.of(), 0).withRoutingPartitions(1);
    try (TopologyFixture fixture = new TopologyFixture(stateDir.resolve("next"), next,
        context(NoiseKeyRing.of(A), published(0, 40)))) {
      for (double[] row : rows) {
        fixture.samples.pipeInput(key("linear"), avro(row));
      }
      List<ModelRelease> released = fixture.releases.readValuesToList();
      ModelRelease first = released.get(0);
      assertEquals(1, first.getStep(), "a new generation starts at step 1");
      assertEquals(1, first.getLedger().getGeneration());
      assertEquals(0.25, first.getLedger().getEarlierGenerationsEpsilonSpent());
      assertEquals(1e-6, first.getLedger().getEarlierGenerationsDeltaSpent());
      ModelRelease last = released.get(rows.length - 1);
      assertFalse(Arrays.equals(parameters(generationZero.get(rows.length - 1)), parameters(last)),
          "the same samples under new coordinates: generation 0's noise is not drawn again");
      byte[] stored = fixture.driver.<String, byte[]>getKeyValueStore(ContinualReleaseTopology.MODEL_STATE_STORE)
          .get("linear");
      assertEquals(1, PlacedState.openStamped("linear", Placement.of("linear", 1), stored).generation());
    }
  }

  @Test
  void aStateBehindItsReleasesOrOfAnotherGenerationIsRefused() {
    double[][] rows = stream(6);
    byte[] stored = runUnderA("first", rows, 5).stored();
    try (TopologyFixture behind = new TopologyFixture(stateDir.resolve("behind"), CONFIG,
        context(NoiseKeyRing.of(A), published(0, 9)))) {
      behind.driver.<String, byte[]>getKeyValueStore(ContinualReleaseTopology.MODEL_STATE_STORE).put("linear", stored);
      behind.samples.pipeInput(key("linear"), avro(rows[5]));
      assertEquals(StateRefusal.STATE_BEHIND_RELEASES.name(), behind.rejected.readValue().getReason());
    }
    try (TopologyFixture regressed = new TopologyFixture(stateDir.resolve("regressed"), CONFIG,
        context(NoiseKeyRing.of(A), published(2, 9)))) {
      regressed.samples.pipeInput(key("linear"), avro(rows[5]));
      RejectedRecord rejected = regressed.rejected.readValue();
      assertEquals(StateRefusal.NOISE_GENERATION_MISMATCH.name(), rejected.getReason());
      assertTrue(rejected.getMessage().contains("noiseGeneration 2"), rejected.getMessage());
    }
    byte[] inGenerationOne = PlacedState.stamp(Placement.of("linear", 1), 1,
        PlacedState.open("linear", Placement.of("linear", 1), stored));
    try (TopologyFixture lower = new TopologyFixture(stateDir.resolve("lower"), CONFIG, NoiseContext.of(A))) {
      lower.driver.<String, byte[]>getKeyValueStore(ContinualReleaseTopology.MODEL_STATE_STORE)
          .put("linear", inGenerationOne);
      lower.samples.pipeInput(key("linear"), avro(rows[5]));
      assertEquals(StateRefusal.NOISE_GENERATION_MISMATCH.name(), lower.rejected.readValue().getReason());
    }
    try (TopologyFixture ahead = new TopologyFixture(stateDir.resolve("ahead"), CONFIG,
        context(NoiseKeyRing.of(A), published(0, 5)))) {
      ahead.driver.<String, byte[]>getKeyValueStore(ContinualReleaseTopology.MODEL_STATE_STORE).put("linear", stored);
      ahead.samples.pipeInput(key("linear"), avro(rows[5]));
      assertEquals(6, ahead.releases.readValue().getStep(), "a state at its newest published step resumes");
    }
  }
}
