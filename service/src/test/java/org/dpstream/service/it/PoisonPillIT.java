package org.dpstream.service.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.metrics.ProcessingErrors;
import org.dpstream.service.streams.ExplodingProcessor;
import org.dpstream.service.streams.StreamsSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Poison pills on a real broker with exactly-once: huge finite samples (
 * {@code [1e200, 0.1, ...]}, +-Double.MAX_VALUE) are clipped and learnt like any sample, bit for bit as
 * the core estimator learns them; and a record that makes a processor throw outside dpstream's guards
 * lands on the rejected topic through Kafka Streams' handlers (in the transaction) while the stream
 * thread keeps running.
 */
@Timeout(150)
class PoisonPillIT {

  @RegisterExtension
  static final KafkaHarness kafka = KafkaHarness.perClass();

  private static byte[] json(double[] x, double y) {
    StringBuilder features = new StringBuilder();
    for (int i = 0; i < x.length; i++) {
      features.append(i == 0 ? "" : ",").append(Double.toString(x[i]));
    }
    return String.format(Locale.ROOT, "{\"features\":[%s],\"label\":%s}", features, Double.toString(y))
        .getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void hugeFiniteSamplesAreClippedAndLearntAsInCore(@TempDir Path stateDir) {
    List<ModelConfig> models = ItModels.models(1);
    ServiceConfig config = ItModels.serviceConfig("poison", models, kafka.bootstrapServers(), stateDir.toString());
    Topics topics = kafka.createTopics(config.topics());
    double max = Double.MAX_VALUE;
    double[][] poisons = {
        {1e200, 0.1, 0.1, 0.1, 0.1}, {max, max, max, max, max}, {-max, max, -max, Double.MIN_VALUE, -0.0}};
    double[] poisonLabels = {0.1, -max, max};
    List<SampleRow> rows = new ArrayList<>();
    List<KafkaHarness.RawRecord> produced = new ArrayList<>();
    List<SampleRow> valid = SyntheticStream.generate(models, 30, 12L);
    for (int i = 0; i < valid.size(); i++) {
      SampleRow row = valid.get(i);
      rows.add(row);
      produced.add(new KafkaHarness.RawRecord(row.key(), row.avro()));
      if (i % 10 == 5) {
        int k = (i / 10) % poisons.length;
        SampleRow poison = new SampleRow(row.modelId(), poisons[k], poisonLabels[k]);
        rows.add(poison);
        produced.add(new KafkaHarness.RawRecord(poison.key(), json(poison.features(), poison.label())));
      }
    }

    try (InProcessService service = new InProcessService(config);
        CommittedTopicReader<ModelRelease> releases = kafka.releasesReader(topics);
        CommittedTopicReader<RejectedRecord> rejected = kafka.rejectedReader(topics)) {
      kafka.produce(topics.samples().name(), produced);
      releases.awaitAtLeast(rows.size(), Duration.ofSeconds(90), service::isUp, service::describe);
      releases.readFor(Duration.ofSeconds(1));
      rejected.poll();

      assertEquals(rows.size(), releases.count(), "every sample, huge or not, is one step and one release");
      assertEquals(0, rejected.count(), "nothing is rejected: finite values are clipped, not refused");
      ReleaseAssertions.assertReleasesMatchReference(ReferenceReleases.of(models, rows), releases.records());
      assertEquals(KafkaStreams.State.RUNNING, service.service.state());
      assertEquals(0, service.counterSum(ProcessingErrors.METER));
    }
  }

  @Test
  void aRecordFailingOutsideTheGuardsIsRejectedByKafkaStreamsHandlers(@TempDir Path stateDir) throws Exception {
    ServiceConfig config = ItModels.serviceConfig("backstop", ItModels.models(1), kafka.bootstrapServers(),
        stateDir.toString());
    Topics topics = kafka.createTopics(config.topics());
    String out = topics.releases().name(); // any topic of the test's own; the values here are raw bytes
    Topology topology = new Topology();
    topology.addSource("in", new ByteArrayDeserializer(), new ByteArrayDeserializer(), topics.samples().name());
    topology.addProcessor("exploding", () -> new ExplodingProcessor(() -> new IllegalStateException("boom")), "in");
    topology.addSink("out", out, new ByteArraySerializer(), new ByteArraySerializer(), "exploding");
    SimpleMeterRegistry registry = new SimpleMeterRegistry();

    try (KafkaStreams streams = new KafkaStreams(topology, StreamsSettings.of(config, registry));
        CommittedTopicReader<byte[]> outputs = kafka.reader(out, new ByteArrayDeserializer());
        CommittedTopicReader<RejectedRecord> rejected = kafka.rejectedReader(topics)) {
      streams.start();
      byte[] key = "m".getBytes(StandardCharsets.UTF_8);
      kafka.produce(topics.samples().name(), List.of("a", "boom", "b").stream()
          .map(v -> new KafkaHarness.RawRecord(key, v.getBytes(StandardCharsets.UTF_8))).toList());
      outputs.awaitAtLeast(2, Duration.ofSeconds(60));
      rejected.awaitAtLeast(1, Duration.ofSeconds(30));

      assertEquals(List.of("a", "b"), outputs.records().stream()
          .map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList());
      assertEquals(1, rejected.count());
      RejectedRecord rejection = rejected.records().get(0).value();
      assertEquals("PROCESSING_ERROR", rejection.getReason());
      assertEquals("processing failed with java.lang.IllegalStateException", rejection.getMessage());
      ByteBuffer original = rejection.getOriginalValue().duplicate();
      byte[] originalBytes = new byte[original.remaining()];
      original.get(originalBytes);
      assertArrayEquals("boom".getBytes(StandardCharsets.UTF_8), originalBytes);
      assertEquals(KafkaStreams.State.RUNNING, streams.state());
      assertEquals(1.0, registry.get(ProcessingErrors.METER).tag("model", ProcessingErrors.OUTSIDE_PROCESSORS)
          .counter().count());
    }
  }
}
