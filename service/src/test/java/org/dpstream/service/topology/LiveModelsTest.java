package org.dpstream.service.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A task keeps at most its capacity of models loaded, and a model dropped from the heap loses nothing. */
class LiveModelsTest {

  @TempDir Path stateDir;

  @Test
  void keepsTheMostRecentlyUsedUpToItsCapacity() {
    LiveModels<String> live = new LiveModels<>(2);
    live.use("a", id -> id, 1);
    live.use("b", id -> id, 2);
    live.use("a", id -> "reloaded", 3);
    live.use("c", id -> id, 4);
    assertEquals(2, live.size());
    assertTrue(live.contains("a") && live.contains("c"), "b, the least recently used, is dropped");
    assertEquals("a", live.use("a", id -> "reloaded", 5), "a kept loaded is not loaded again");
    assertThrows(IllegalArgumentException.class, () -> new LiveModels<String>(0));
  }

  @Test
  void dropsTheModelsUnusedSinceACutoff() {
    LiveModels<String> live = new LiveModels<>(10);
    live.use("a", id -> id, 100);
    live.use("b", id -> id, 200);
    live.use("c", id -> id, 300);
    live.use("a", id -> id, 400);
    live.dropUnusedSince(300);
    assertEquals(2, live.size());
    assertTrue(live.contains("a") && live.contains("c"), "b, last used at 200, is dropped; a, used at 400, stays");
    live.dropUnusedSince(1_000);
    assertEquals(0, live.size());
  }

  /**
   * Three models whose samples interleave, one loaded at a time: every sample loads its model from the store, and the
   * releases are those of a task that keeps all three loaded, bit for bit.
   */
  @Test
  void aModelReloadedFromItsStoreReleasesWhatItWouldHaveReleasedLoaded() {
    ModelConfig a = TopologyFixture.LINEAR;
    ModelConfig b = new ModelConfig("linear-b", 3, "squared", "1.5", 2, 1, 1e-5, 64, 1, 2, null, null, "zcdp", 1);
    ModelConfig c = new ModelConfig("linear-c", 3, "squared", "1.5", 2, 1, 1e-5, 64, 1, 2, null, null, "zcdp", 1);
    ServiceConfig config = new ServiceConfig("dpstream-test", null, List.of(a, b, c), Map.of(), 0)
        .withRoutingPartitions(1);
    double[][] rows = ContinualReleaseTopologyTest.stream(210); // 70 steps a model, past the horizon of 64: a new epoch too
    List<ModelRelease> oneLoaded = run(config, 1, rows, stateDir.resolve("one"));
    List<ModelRelease> allLoaded = run(config, 1_000, rows, stateDir.resolve("all"));

    assertEquals(rows.length, oneLoaded.size());
    for (int i = 0; i < rows.length; i++) {
      ModelRelease reloaded = oneLoaded.get(i);
      ModelRelease kept = allLoaded.get(i);
      assertEquals(kept.getModelId(), reloaded.getModelId());
      assertEquals(kept.getStep(), reloaded.getStep());
      assertArrayEquals(ContinualReleaseTopologyTest.parameters(kept), ContinualReleaseTopologyTest.parameters(reloaded),
          "release " + i);
      assertEquals(kept.getLedger(), reloaded.getLedger());
    }
    assertEquals(70, allLoaded.get(rows.length - 1).getStep(), "each model stepped a third of the samples");
  }

  private static List<ModelRelease> run(ServiceConfig config, int liveModels, double[][] rows, Path stateDir) {
    String[] ids = {"linear", "linear-b", "linear-c"};
    try (TopologyFixture fixture = new TopologyFixture(stateDir, config, liveModels)) {
      for (int i = 0; i < rows.length; i++) {
        fixture.samples.pipeInput(ContinualReleaseTopologyTest.key(ids[i % 3]), ContinualReleaseTopologyTest.avro(rows[i]));
      }
      assertTrue(fixture.rejected.isEmpty(), "nothing rejected");
      return fixture.releases.readValuesToList();
    }
  }
}
