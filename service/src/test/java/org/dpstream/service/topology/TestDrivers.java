package org.dpstream.service.topology;

import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.dpstream.service.kafka.Topic;

/** TopologyTestDrivers as the service runs its topologies (exactly-once), and their topics. */
public final class TestDrivers {

  private TestDrivers() {}

  /** A driver of {@code topology} with exactly-once processing and its state under {@code stateDir}. */
  public static TopologyTestDriver exactlyOnce(Topology topology, String applicationId, Path stateDir) {
    Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
    properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    properties.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    return new TopologyTestDriver(topology, properties);
  }

  /** An input topic taking raw bytes, as producers may send anything. */
  public static TestInputTopic<byte[], byte[]> rawInput(TopologyTestDriver driver, String topic) {
    return driver.createInputTopic(topic, new ByteArraySerializer(), new ByteArraySerializer());
  }

  /** An output topic read with the topic's own serdes. */
  public static <K, V> TestOutputTopic<K, V> output(TopologyTestDriver driver, Topic<K, V> topic) {
    return driver.createOutputTopic(topic.name(), topic.keySerde().deserializer(), topic.valueSerde().deserializer());
  }
}
