package org.dpstream.service.bandit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.test.TestRecord;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.schemas.BanditStepRelease;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.metrics.BanditMetrics;
import org.dpstream.service.noise.NoiseContext;
import org.dpstream.service.release.BanditStepReleases;
import org.dpstream.service.serde.DpSerdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default release format: one {@link BanditStepRelease} per release step, keyed by the bandit id, carrying bit
 * for bit what the per-arm records ({@code releaseFormat: arms}) carry for the same stream, under the same key.
 */
class BanditStepReleaseTopologyTest {

  @TempDir Path stateDir;

  /** The records the topology writes to dp.releases for {@code config} over the test stream, key and bytes. */
  private List<TestRecord<String, byte[]>> published(BanditConfig config, String run) {
    BanditRegistry registry = new ServiceConfig("bandit-test", null, List.of(), Map.of(), 0, List.of(config))
        .withRoutingPartitions(1).banditRegistry();
    try (BanditDriver driver = new BanditDriver(stateDir.resolve(run), "bandit-test", registry, BanditMetrics.NONE, 1,
        BanditTopology.Deciding.IN_TOPOLOGY, NoiseContext.of(new KeyedNoiseSource(BanditTopologyTest.key())))) {
      var releases = driver.driver.createOutputTopic(driver.topics.releases().name(), new StringDeserializer(),
          new ByteArrayDeserializer());
      for (BanditReference.Event event : BanditTopologyTest.stream(300, 41)) {
        if (event.isContext()) {
          driver.context(config.id(), event.timestamp(), event.requestId(), event.context());
        } else {
          driver.reward(config.id(), event.timestamp(), event.requestId(), event.reward());
        }
      }
      return releases.readRecordsToList();
    }
  }

  @Test
  void aStepIsOneRecordCarryingEveryArmBitForBitAsThePerArmRecords() {
    for (BanditConfig config : List.of(BanditTopologyTest.DROP, BanditTopologyTest.IMPUTE, BanditTopologyTest.LINEAR)) {
      List<TestRecord<String, byte[]>> steps = published(config, config.id() + "-step");
      List<TestRecord<String, byte[]>> arms = published(config.withReleaseFormat("arms"), config.id() + "-arms");
      assertTrue(steps.size() > 10, config.id() + ": the stream releases: " + steps.size());

      List<String> unfolded = new ArrayList<>();
      List<String> unfoldedKeys = new ArrayList<>();
      long stepBytes = 0;
      boolean extras = false;
      for (TestRecord<String, byte[]> record : steps) {
        assertEquals(config.id(), record.key(), "a step record is keyed by its bandit id");
        assertFalse(record.headers().iterator().hasNext(), "a release carries no headers");
        BanditStepRelease step = DpSerdes.banditStepRelease().decodeOrThrow(record.value());
        assertEquals(config.arms(), step.getArms().size(), "every arm in the step's one record");
        extras |= !step.getExtras().isEmpty();
        stepBytes += record.value().length;
        for (ModelRelease release : BanditStepReleases.armReleases(step)) {
          unfolded.add(HexFormat.of().formatHex(DpSerdes.modelRelease().encode(release)));
          unfoldedKeys.add(release.getModelId());
        }
      }
      assertEquals(arms.stream().map(r -> HexFormat.of().formatHex(r.value())).toList(), unfolded,
          config.id() + ": the step records carry the per-arm records' bytes, in their order");
      assertEquals(arms.stream().map(TestRecord::key).toList(), unfoldedKeys, config.id());
      // The driver's wall clock starts at its creation and the stream's timestamps at 0: a release stamped with a
      // record's timestamp would be far below it.
      long lastEvent = BanditTopologyTest.stream(300, 41).stream().mapToLong(BanditReference.Event::timestamp).max()
          .orElseThrow();
      assertTrue(steps.stream().allMatch(r -> r.timestamp() > lastEvent), "stamped by the service's clock");
      long armBytes = arms.stream().mapToLong(r -> r.value().length).sum();
      assertTrue(stepBytes < armBytes, config.id() + ": " + stepBytes + " bytes as steps, " + armBytes + " as arms");
      if (config == BanditTopologyTest.DROP) {
        assertTrue(extras, "the forced-sampling estimators ride in the step that publishes them");
      }
    }
  }
}
