package org.dpstream.bench.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.dpstream.schemas.DenseFeatures;
import org.dpstream.schemas.Sample;
import org.dpstream.service.serde.DpSerdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The routed baseline goes through the service's routing topic and forwards every sample once, keyed by its model,
 * without headers; the straight one keeps its records' headers.
 */
class PassThroughTopologyTest {

  @TempDir Path stateDir;

  @Test
  void theRoutedBaselineForwardsEachSampleOnceThroughTheRoutingTopicWithoutHeaders() {
    Topology topology = PassThroughTopology.buildRouted("in", "out", 6);
    String described = topology.describe().toString();
    assertTrue(described.contains("bench-routing-repartition"), described);

    byte[][] values = new byte[3][];
    for (int i = 0; i < values.length; i++) {
      values[i] = DpSerdes.sample().encode(Sample.newBuilder()
          .setFeatures(new DenseFeatures(List.of(0.1 * i, -0.2))).setLabel(i).build());
    }
    try (TopologyTestDriver driver = new TopologyTestDriver(topology, properties())) {
      TestInputTopic<byte[], byte[]> in = driver.createInputTopic("in", new ByteArraySerializer(), new ByteArraySerializer());
      TestOutputTopic<String, byte[]> out = driver.createOutputTopic("out", new StringDeserializer(),
          new ByteArrayDeserializer());
      RecordHeaders producerHeaders = new RecordHeaders();
      producerHeaders.add("person", "p-7".getBytes(StandardCharsets.UTF_8));
      for (int i = 0; i < values.length; i++) {
        in.pipeInput(new TestRecord<>(("model-" + i).getBytes(StandardCharsets.UTF_8), values[i], producerHeaders));
      }
      in.pipeInput(new TestRecord<>("model-0".getBytes(StandardCharsets.UTF_8), new byte[] {1, 2, 3}));

      List<TestRecord<String, byte[]>> forwarded = out.readRecordsToList();
      assertEquals(values.length, forwarded.size(), "one output per decodable sample, none for the undecodable one");
      for (int i = 0; i < values.length; i++) {
        assertEquals("model-" + i, forwarded.get(i).key());
        assertArrayEquals(values[i], forwarded.get(i).value());
        assertEquals(0, forwarded.get(i).headers().toArray().length, "neither the producer's nor routing's headers");
      }
    }
  }

  @Test
  void theStraightBaselineKeepsItsRecordsHeaders() {
    try (TopologyTestDriver driver = new TopologyTestDriver(PassThroughTopology.build("in", "out"), properties())) {
      TestInputTopic<byte[], byte[]> in = driver.createInputTopic("in", new ByteArraySerializer(), new ByteArraySerializer());
      TestOutputTopic<byte[], byte[]> out = driver.createOutputTopic("out", new ByteArrayDeserializer(),
          new ByteArrayDeserializer());
      byte[] value = DpSerdes.sample().encode(Sample.newBuilder()
          .setFeatures(new DenseFeatures(List.of(0.5))).setLabel(1).build());
      RecordHeaders headers = new RecordHeaders();
      headers.add("h", new byte[] {9});
      in.pipeInput(new TestRecord<>(new byte[] {1}, value, headers));
      TestRecord<byte[], byte[]> forwarded = out.readRecord();
      assertArrayEquals(value, forwarded.value());
      assertEquals(1, forwarded.headers().toArray().length);
      assertTrue(out.isEmpty());
    }
  }

  private Properties properties() {
    Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "app");
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
    properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    properties.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    return properties;
  }
}
