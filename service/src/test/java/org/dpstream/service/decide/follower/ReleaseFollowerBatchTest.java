package org.dpstream.service.decide.follower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.hdb.DpHdbPolicy;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.bandit.BanditReleases;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.release.BanditStepReleases;
import org.dpstream.service.serde.DpSerdes;
import org.junit.jupiter.api.Test;

/**
 * The follower reads a poll's records of a key by its newest only; a DP-HDB bandit's forced-sampling estimators ride
 * in one step record every 1,000 rounds, so when a poll holds that record and later steps, the newest step must still
 * be decided from (the earlier record's extras are read for it).
 */
class ReleaseFollowerBatchTest {

  private static final String TOPIC = "dp.releases";

  @Test
  void theNewestStepOfAPollIsReachedThoughItsExtrasCameWithAnEarlierStepOfThePoll() throws Exception {
    BanditRegistry.Entry entry = new BanditConfig("follow", 4, 3, "identity", 1.0, "0.3", 5L, 1, 1e-5, 2_000, 1.0,
        1.0, "10s", "drop", null, 1).toEntry();
    byte[] material = new byte[NoiseKey.MINIMUM_BYTES];
    material[0] = 9;
    DpHdbPolicy policy = DpHdbPolicy.start(entry.hdb(), new KeyedNoiseSource(NoiseKey.ofBytes(material)));
    SplittableRandom random = new SplittableRandom(7); // simulation only
    List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
    int withExtras = 0;
    for (int t = 0; t < 60; t++) {
      double[] x = {random.nextDouble(-1, 1), random.nextDouble(-1, 1), random.nextDouble(-1, 1), random.nextDouble()};
      Decision decision = policy.decide(x);
      policy.update(decision, x, x[0]);
      List<ModelRelease> round = BanditReleases.ofRound(policy, 1);
      withExtras += round.size() > entry.spec().arms() ? 1 : 0;
      records.add(new ConsumerRecord<>(TOPIC, 0, records.size(), "follow",
          DpSerdes.banditStepRelease().encode(BanditStepReleases.of("follow", entry.spec().arms(), round))));
    }
    assertEquals(1, withExtras, "one step carries the forced-sampling estimators (the first after the warm-up)");
    assertEquals(Decision.Phase.GREEDY, policy.phase(), "the last steps need them");

    MockConsumer<String, byte[]> consumer = new MockConsumer<>(OffsetResetStrategy.EARLIEST);
    TopicPartition partition = new TopicPartition(TOPIC, 0);
    consumer.updatePartitions(TOPIC, List.of(new PartitionInfo(TOPIC, 0, null, null, null)));
    consumer.updateBeginningOffsets(Map.of(partition, 0L));
    consumer.updateEndOffsets(Map.of(partition, (long) records.size()));
    consumer.schedulePollTask(() -> records.forEach(consumer::addRecord)); // every step in one poll
    ReleasedBandits released = new ReleasedBandits();
    try (ReleaseFollower follower = ReleaseFollower.start(consumer, TOPIC,
        new BanditRegistry(Map.of("follow", entry)), released)) {
      assertTrue(follower.awaitCaughtUp(Duration.ofSeconds(30)), "the follower reads the poll");
      assertEquals(policy.rounds(), released.latest("follow").orElseThrow().step(),
          "decided from the newest step, with the estimators of an earlier record of the same poll");
    }
  }
}
