package org.dpstream.app.bandit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.dpstream.app.config.BanditRegistry;
import org.dpstream.app.kafka.Topics;
import org.dpstream.app.metrics.MicrometerBanditMetrics;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;

/** The bandit topology with deciders on a test driver, and its inputs and outputs. */
final class DecisionLogFixture implements AutoCloseable {

  static final String BANDIT = BanditTopologyTest.DROP.id();

  final Topics topics = Topics.defaults();
  final BanditRegistry.Entry entry = BanditTopologyTest.CONFIG.banditRegistry().find(BANDIT).orElseThrow();
  final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  final TopologyTestDriver driver;
  final TestInputTopic<byte[], byte[]> decided;
  final TestInputTopic<byte[], byte[]> rewards;
  final TestOutputTopic<String, DecisionResponse> decisions;
  final TestOutputTopic<String, ModelRelease> releases;
  final TestOutputTopic<String, RejectedRecord> rejected;

  DecisionLogFixture(Path stateDir) {
    StreamsBuilder builder = new StreamsBuilder();
    BanditTopology.addTo(builder, BanditTopologyTest.CONFIG.banditRegistry(), topics,
        BanditTopologyTest.CONFIG.routingPartitions(), new KeyedNoiseSource(BanditTopologyTest.key()),
        new MicrometerBanditMetrics(meters), BanditTopology.Deciding.BY_DECIDERS);
    Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "decision-log-test");
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
    properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    properties.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    driver = new TopologyTestDriver(builder.build(), properties);
    decided = driver.createInputTopic(topics.decided().name(), new ByteArraySerializer(), new ByteArraySerializer());
    rewards = driver.createInputTopic(topics.rewards().name(), new ByteArraySerializer(), new ByteArraySerializer());
    decisions = driver.createOutputTopic(topics.decisions().name(), Serdes.String().deserializer(),
        topics.decisions().valueSerde().deserializer());
    releases = driver.createOutputTopic(topics.releases().name(), Serdes.String().deserializer(),
        topics.releases().valueSerde().deserializer());
    rejected = driver.createOutputTopic(topics.rejected().name(), Serdes.String().deserializer(),
        topics.rejected().valueSerde().deserializer());
  }

  List<String> rejectionReasons() {
    return rejected.readValuesToList().stream().map(RejectedRecord::getReason).toList();
  }

  double held() {
    return count("dpstream.bandit.rewards.held");
  }

  /** The bandit's counter {@code name}, summed over its other tags (0 if nothing counted yet). */
  double count(String name) {
    return meters.find(name).tag("bandit", BANDIT).counters().stream().mapToDouble(Counter::count).sum();
  }

  @Override
  public void close() {
    driver.close();
  }
}
