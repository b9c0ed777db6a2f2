package org.dpstream.service.decide.producer;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.decide.Decider;
import org.dpstream.service.decide.follower.ReleaseFollower;
import org.dpstream.service.decide.follower.ReleasedBandits;
import org.dpstream.service.kafka.Topics;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Kafka path reports that it has joined its group only once its consumer got its first assignment. */
class ContextDeciderJoinTest {

  @Test
  void itHasJoinedOnlyAfterItsFirstAssignmentEvenAnEmptyOne() throws Exception {
    BanditRegistry registry = new BanditRegistry(Map.of("offers", new BanditConfig("offers", 2, 2, "identity", 1.0,
        "0.1", 5L, 1, 1e-5, 1_000, 1.0, 1.0, "10s", "drop", null, 1).toEntry()));
    ReleasedBandits released = new ReleasedBandits();
    new ReleaseFollower(null, "dp.releases", registry, released);
    DecisionService decisions = new DecisionService(new Decider(registry, released,
        new KeyedNoiseSource(NoiseKey.ofBytes(new byte[NoiseKey.MINIMUM_BYTES]))), Topics.defaults(),
        new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer()), 60_000, 100);
    MockConsumer<String, byte[]> consumer = new MockConsumer<>("earliest");
    try (ContextDecider decider = ContextDecider.start(consumer, "dp.contexts", decisions)) {
      Thread.sleep(300); // it polls, but no rebalance has happened
      assertFalse(decider.hasJoined(), "not joined before any assignment");
      assertTrue(decider.isAlive());
      consumer.schedulePollTask(() -> consumer.rebalance(List.of())); // another instance holds the partition
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (!decider.hasJoined() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertTrue(decider.hasJoined(), "joined once assigned, even nothing");
    }
  }
}
