package org.dpstream.service.decide.http;

import java.util.Map;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.dpstream.bandit.release.ReleasedBandit;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.decide.Decider;
import org.dpstream.service.decide.producer.DecisionService;
import org.dpstream.service.decide.follower.ReleaseFollower;
import org.dpstream.service.decide.follower.ReleasedBandits;
import org.dpstream.service.kafka.Topics;

/**
 * The decision service of the API's tests: one DP-HDB bandit "offers" (d = 2, K = 3), its releases set by the test,
 * a mock producer, and a fixed all-zero noise key.
 */
final class OffersDecisions {

  static final BanditRegistry REGISTRY = new BanditRegistry(Map.of("offers", new BanditConfig("offers", 2, 3,
      "logistic", 1.0, "0.1", 5L, 1, 1e-5, 1_000, 1.0, 1.0, "10s", "drop", null, 1).toEntry()));

  final ReleasedBandits released = new ReleasedBandits();
  final MockProducer<String, byte[]> producer;
  final DecisionService service;

  /** @param autoComplete whether the producer acknowledges every record at once */
  OffersDecisions(boolean autoComplete) {
    this(autoComplete, REGISTRY);
  }

  /** The decision service of {@code registry}'s bandits. */
  OffersDecisions(boolean autoComplete, BanditRegistry registry) {
    new ReleaseFollower(null, "dp.releases", registry, released);
    producer = new MockProducer<>(autoComplete, null, new StringSerializer(), new ByteArraySerializer());
    Decider decider = new Decider(registry, released,
        new KeyedNoiseSource(NoiseKey.ofBytes(new byte[NoiseKey.MINIMUM_BYTES])));
    service = new DecisionService(decider, Topics.defaults(), producer, 60_000, 1_000);
  }

  /** The bandit's releases are now at {@code step} (every arm's parameters 0). */
  void release(long step) {
    released.publish(new ReleasedBandit("offers", "dp-hdb", step, new double[3][2], Map.of()));
  }
}
