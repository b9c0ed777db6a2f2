package org.dpstream.service.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.DeciderConfig;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.OutputFormat;
import org.dpstream.service.serde.SchemaSerde;
import org.dpstream.service.testing.TestNoiseKeys;
import org.dpstream.service.topology.TestDrivers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service's topology with {@code output.format: json} writes releases, decisions and rejections as
 * natural JSON, the same records (bit for bit once decoded) as with Avro.
 */
class OutputFormatTopologyTest {

  private static final ModelConfig MODEL = new ModelConfig("linear", 3, "squared", "1.5", 2, 1, 1e-5, 64, 1, 2,
      null, null, "zcdp", 1);
  private static final BanditConfig BANDIT = new BanditConfig("offers", 3, 2, "identity", 1.0, "0.1", 4L, 1, 1e-5,
      200, 1.0, 1.0, "10s", "drop", null, 1);
  private static final ServiceConfig CONFIG =
      new ServiceConfig("format-test", null, List.of(MODEL), Map.of(), 0, List.of(BANDIT))
          // The test driver runs every topic as one partition.
          .withRoutingPartitions(1);

  @TempDir Path stateDir;

  /** Raw output values per topic, in order. */
  /** dp.releases split into the model's releases and the bandit's step records (key = the bandit id). */
  private record Outputs(List<byte[]> releases, List<byte[]> banditSteps, List<byte[]> decisions,
      List<byte[]> rejected) {}

  @Test
  void jsonOutputsAreTheAvroOutputsAsNaturalJson() {
    Outputs avro = run(CONFIG, "avro");
    Outputs json = run(CONFIG.withOutputFormat(OutputFormat.JSON), "json");

    assertFalse(avro.releases().isEmpty() || avro.banditSteps().isEmpty() || avro.decisions().isEmpty()
        || avro.rejected().isEmpty(), "every output topic got records");
    for (List<byte[]> values : List.of(avro.releases(), avro.banditSteps(), avro.decisions(), avro.rejected())) {
      values.forEach(value -> assertTrue(SchemaSerde.isSingleObjectEncoded(value), "Avro by default"));
    }
    for (List<byte[]> values : List.of(json.releases(), json.banditSteps(), json.decisions(), json.rejected())) {
      values.forEach(value -> assertTrue(new String(value, StandardCharsets.UTF_8).startsWith("{\""), "JSON"));
    }
    assertSameRecords(DpSerdes.modelRelease(), avro.releases(), json.releases());
    assertSameRecords(DpSerdes.banditStepRelease(), avro.banditSteps(), json.banditSteps());
    assertSameRecords(DpSerdes.decisionResponse(), avro.decisions(), json.decisions());
    assertSameRecords(DpSerdes.rejectedRecord(), avro.rejected(), json.rejected());
  }

  @Test
  void theJsonIsWhatTheSerdeWritesForTheRecord() {
    Outputs json = run(CONFIG.withOutputFormat(OutputFormat.JSON), "json-text");
    SchemaSerde<org.dpstream.schemas.ModelRelease> releases = DpSerdes.modelRelease();
    for (byte[] value : json.releases()) {
      assertEquals(releases.toJson(releases.deserialize("t", value)), new String(value, StandardCharsets.UTF_8));
    }
    SchemaSerde<org.dpstream.schemas.BanditStepRelease> steps = DpSerdes.banditStepRelease();
    assertFalse(json.banditSteps().isEmpty());
    for (byte[] value : json.banditSteps()) {
      assertEquals(steps.toJson(steps.deserialize("t", value)), new String(value, StandardCharsets.UTF_8));
    }
  }

  private static <T> void assertSameRecords(Deserializer<T> serde, List<byte[]> avro, List<byte[]> json) {
    assertEquals(avro.size(), json.size());
    for (int i = 0; i < avro.size(); i++) {
      assertEquals(serde.deserialize("t", avro.get(i)), serde.deserialize("t", json.get(i)), "record " + i);
    }
  }

  private Outputs run(ServiceConfig formatConfig, String name) {
    // Decisions made in the topology, so that dp.decisions carries them (deciders write it outside the topology).
    ServiceConfig config = formatConfig.withDecider(DeciderConfig.decidingInTopology());
    Topics topics = new Topics(config.topics());
    try (TopologyTestDriver driver = TestDrivers.exactlyOnce(
        DpstreamService.topology(config, new KeyedNoiseSource(key()), new SimpleMeterRegistry()), "format-test",
        stateDir.resolve(name))) {
      TestInputTopic<byte[], byte[]> samples = input(driver, topics.samples().name());
      for (int i = 0; i < 5; i++) {
        samples.pipeInput(new TestRecord<>(utf8("linear"),
            utf8("{\"features\":[" + 0.1 * i + ",0.2,-0.3],\"label\":" + 0.05 * i + "}"), null, 1000L + i));
      }
      samples.pipeInput(new TestRecord<>(utf8("linear"), utf8("{\"features\":[0.1,0.2,0.3]}"), null, 2000L));
      TestInputTopic<byte[], byte[]> contexts = input(driver, topics.contexts().name());
      TestInputTopic<byte[], byte[]> rewards = input(driver, topics.rewards().name());
      for (int i = 0; i < 3; i++) {
        contexts.pipeInput(new TestRecord<>(utf8("offers"),
            utf8("{\"requestId\":\"r" + i + "\",\"context\":[0.5," + 0.1 * i + ",-0.2]}"), null, 3000L + i));
        rewards.pipeInput(new TestRecord<>(utf8("offers"),
            utf8("{\"requestId\":\"r" + i + "\",\"reward\":" + 0.3 * i + "}"), null, 3000L + i));
      }
      List<org.apache.kafka.streams.KeyValue<byte[], byte[]>> releases = driver.createOutputTopic(
          topics.releases().name(), new ByteArrayDeserializer(), new ByteArrayDeserializer()).readKeyValuesToList();
      return new Outputs(
          releases.stream().filter(r -> !Arrays.equals(r.key, utf8("offers"))).map(r -> r.value).toList(),
          releases.stream().filter(r -> Arrays.equals(r.key, utf8("offers"))).map(r -> r.value).toList(),
          values(driver, topics.decisions().name()), values(driver, topics.rejected().name()));
    }
  }

  private static TestInputTopic<byte[], byte[]> input(TopologyTestDriver driver, String topic) {
    return driver.createInputTopic(topic, new ByteArraySerializer(), new ByteArraySerializer());
  }

  private static List<byte[]> values(TopologyTestDriver driver, String topic) {
    return driver.createOutputTopic(topic, new ByteArrayDeserializer(), new ByteArrayDeserializer())
        .readValuesToList();
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static NoiseKey key() {
    return TestNoiseKeys.arithmetic(7, 2);
  }
}
