package org.dpstream.app.bandit;

import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.dpstream.app.kafka.Topics;
import org.dpstream.app.metrics.BanditMetrics;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;

/**
 * The bandit topology of {@link BanditTopologyTest#CONFIG} (exactly-once, the test's noise key) on a TopologyTestDriver,
 * with its input and output topics.
 */
final class BanditDriver implements AutoCloseable {

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
    Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
    properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    properties.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    driver = new TopologyTestDriver(builder.build(), properties);
    String requestTopic = deciding == BanditTopology.Deciding.BY_DECIDERS
        ? topics.decided().name() : topics.contexts().name();
    requests = driver.createInputTopic(requestTopic, new ByteArraySerializer(), new ByteArraySerializer());
    rewards = driver.createInputTopic(topics.rewards().name(), new ByteArraySerializer(), new ByteArraySerializer());
    decisions = driver.createOutputTopic(topics.decisions().name(), Serdes.String().deserializer(),
        topics.decisions().valueSerde().deserializer());
    releases = driver.createOutputTopic(topics.releases().name(), Serdes.String().deserializer(),
        topics.releases().valueSerde().deserializer());
    rejected = driver.createOutputTopic(topics.rejected().name(), Serdes.String().deserializer(),
        topics.rejected().valueSerde().deserializer());
  }

  @Override
  public void close() {
    driver.close();
  }
}
