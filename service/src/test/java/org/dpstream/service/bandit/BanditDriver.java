package org.dpstream.service.bandit;

import java.nio.file.Path;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.metrics.BanditMetrics;
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
  final TestOutputTopic<String, ModelRelease> releases;
  final TestOutputTopic<String, RejectedRecord> rejected;

  /** With {@code routingPartitions} > 1 the driver still delivers every routed record to partition 0. */
  BanditDriver(Path stateDir, String applicationId, BanditMetrics metrics, int routingPartitions,
      BanditTopology.Deciding deciding) {
    StreamsBuilder builder = new StreamsBuilder();
    BanditTopology.addTo(builder, BanditTopologyTest.CONFIG.banditRegistry(), topics, routingPartitions,
        new KeyedNoiseSource(BanditTopologyTest.key()), metrics, deciding);
    driver = TestDrivers.exactlyOnce(builder.build(), applicationId, stateDir);
    String requestTopic = deciding == BanditTopology.Deciding.BY_DECIDERS
        ? topics.decided().name() : topics.contexts().name();
    requests = TestDrivers.rawInput(driver, requestTopic);
    rewards = TestDrivers.rawInput(driver, topics.rewards().name());
    decisions = TestDrivers.output(driver, topics.decisions());
    releases = TestDrivers.output(driver, topics.releases());
    rejected = TestDrivers.output(driver, topics.rejected());
  }

  @Override
  public void close() {
    driver.close();
  }
}
