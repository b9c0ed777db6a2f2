package org.dpstream.service.bandit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.schemas.Reward;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.metrics.BanditMetrics;
import org.dpstream.service.noise.NoiseContext;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.topology.TestDrivers;

/**
 * The bandit topology of {@link BanditTopologyTest#CONFIG} (exactly-once, the test's noise key) on a
 * TopologyTestDriver, with its input and output topics. Tests' fixtures extend it with their helpers.
 */
class BanditDriver implements AutoCloseable {

  final Topics topics = Topics.defaults();
  final TopologyTestDriver driver;
  /** dp.contexts, or with deciders the decision log. */
  final TestInputTopic<byte[], byte[]> requests;
  final TestInputTopic<byte[], byte[]> rewards;
  final TestOutputTopic<String, DecisionResponse> decisions;
  /** dp.releases as per-arm releases (a step record unfolded). */
  final ArmReleases releases;
  final TestOutputTopic<String, RejectedRecord> rejected;

  /** With {@code routingPartitions} > 1 the driver still delivers every routed record to partition 0. */
  BanditDriver(Path stateDir, String applicationId, BanditMetrics metrics, int routingPartitions,
      BanditTopology.Deciding deciding) {
    this(stateDir, applicationId, metrics, routingPartitions, deciding,
        NoiseContext.of(new KeyedNoiseSource(BanditTopologyTest.key())));
  }

  /** With these noise keys and this record of what was published. */
  BanditDriver(Path stateDir, String applicationId, BanditMetrics metrics, int routingPartitions,
      BanditTopology.Deciding deciding, NoiseContext noise) {
    this(stateDir, applicationId, BanditTopologyTest.CONFIG.banditRegistry(), metrics, routingPartitions, deciding,
        noise);
  }

  /** The bandits of {@code bandits}, with these noise keys and this record of what was published. */
  BanditDriver(Path stateDir, String applicationId, BanditRegistry bandits, BanditMetrics metrics,
      int routingPartitions, BanditTopology.Deciding deciding, NoiseContext noise) {
    this(stateDir, applicationId, bandits, metrics, routingPartitions, deciding, noise, BanditPolicies.PRIVATE);
  }

  /** Around the bandits of {@code registry}, started and resumed by {@code policies}. */
  BanditDriver(Path stateDir, String applicationId, BanditRegistry registry, BanditMetrics metrics,
      int routingPartitions, BanditTopology.Deciding deciding, NoiseContext noise, BanditPolicies policies) {
    StreamsBuilder builder = new StreamsBuilder();
    BanditTopology.addTo(builder, registry, topics, routingPartitions, noise, metrics, deciding, policies);
    driver = TestDrivers.exactlyOnce(builder.build(), applicationId, stateDir);
    String requestTopic = deciding == BanditTopology.Deciding.BY_DECIDERS
        ? topics.decided().name() : topics.contexts().name();
    requests = TestDrivers.rawInput(driver, requestTopic);
    rewards = TestDrivers.rawInput(driver, topics.rewards().name());
    decisions = TestDrivers.output(driver, topics.decisions());
    releases = new ArmReleases(driver, topics.releases().name());
    rejected = TestDrivers.output(driver, topics.rejected());
  }

  void context(String bandit, long timestamp, String requestId, double[] x) {
    List<Double> values = new ArrayList<>();
    for (double v : x) {
      values.add(v);
    }
    byte[] value = DpSerdes.decisionRequest().encode(
        DecisionRequest.newBuilder().setRequestId(requestId).setContext(values).build());
    requests.pipeInput(new TestRecord<>(BanditTopologyTest.bytes(bandit), value, null, timestamp));
  }

  void reward(String bandit, long timestamp, String requestId, double r) {
    byte[] value = DpSerdes.reward().encode(Reward.newBuilder().setRequestId(requestId).setReward(r).build());
    rewards.pipeInput(new TestRecord<>(BanditTopologyTest.bytes(bandit), value, null, timestamp));
  }

  @Override
  public void close() {
    driver.close();
  }

  /** Closes the driver and deletes its state directory (property tests start each try afresh). */
  void closeAndDelete(Path stateDir) throws IOException {
    close();
    try (var files = Files.walk(stateDir)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }
}
