package org.dpstream.service.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.metrics.ProcessingErrors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka Streams' own handlers, as {@link StreamsSettings} installs them, send a record that fails outside
 * the processors' guard to dp.rejected as PROCESSING_ERROR and processing goes on: here a processor
 * without a guard that throws, and a sink whose serializer throws.
 */
class RejectingExceptionHandlerTest {

  private static final Topics TOPICS = Topics.defaults();

  @TempDir Path stateDir;

  /** Refuses to serialize "unserializable". */
  private static final Serializer<byte[]> PICKY = (topic, value) -> {
    if (new String(value, StandardCharsets.UTF_8).equals("unserializable")) {
      throw new IllegalArgumentException("cannot serialize");
    }
    return value;
  };

  @Test
  void recordsFailingOutsideTheGuardsAreRejectedAndProcessingGoesOn() {
    Topology topology = new Topology();
    topology.addSource("in", new ByteArrayDeserializer(), new ByteArrayDeserializer(), TOPICS.samples().name());
    topology.addProcessor("exploding", () -> new ExplodingProcessor(() -> new ArithmeticException("secret value in the message")), "in");
    topology.addSink("out", "out", new ByteArraySerializer(), PICKY, "exploding");

    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "handler-test");
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
    properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    StreamsSettings.rejectFailedRecords(properties, TOPICS, registry);

    try (TopologyTestDriver driver = new TopologyTestDriver(topology, properties)) {
      TestInputTopic<byte[], byte[]> in =
          driver.createInputTopic(TOPICS.samples().name(), new ByteArraySerializer(), new ByteArraySerializer());
      TestOutputTopic<String, byte[]> out = driver.createOutputTopic("out", new StringDeserializer(), new ByteArrayDeserializer());
      TestOutputTopic<String, RejectedRecord> rejected = driver.createOutputTopic(TOPICS.rejected().name(),
          Serdes.String().deserializer(), TOPICS.rejected().valueSerde().deserializer());

      for (String value : List.of("a", "boom", "b", "unserializable", "c")) {
        in.pipeInput("m".getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
      }

      assertEquals(List.of("a", "b", "c"),
          out.readValuesToList().stream().map(v -> new String(v, StandardCharsets.UTF_8)).toList());
      List<RejectedRecord> rejections = rejected.readValuesToList();
      assertEquals(2, rejections.size());
      assertEquals("PROCESSING_ERROR", rejections.get(0).getReason());
      assertEquals("processing failed with java.lang.ArithmeticException", rejections.get(0).getMessage());
      assertArrayEquals("boom".getBytes(StandardCharsets.UTF_8), bytes(rejections.get(0).getOriginalValue()));
      assertEquals(1, rejections.get(0).getSourceOffset());
      assertEquals("PROCESSING_ERROR", rejections.get(1).getReason());
      assertArrayEquals("unserializable".getBytes(StandardCharsets.UTF_8), bytes(rejections.get(1).getOriginalValue()));
      assertEquals(TOPICS.samples().name(), rejections.get(1).getSourceTopic());
      assertEquals(2.0, registry.get(ProcessingErrors.METER).tag("model", ProcessingErrors.OUTSIDE_PROCESSORS)
          .counter().count());
    }
  }

  private static byte[] bytes(ByteBuffer buffer) {
    byte[] out = new byte[buffer.remaining()];
    buffer.duplicate().get(out);
    return out;
  }
}
