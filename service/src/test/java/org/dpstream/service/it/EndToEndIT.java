package org.dpstream.service.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.kafka.Topics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The service on a real broker with exactly-once: every sample in gives its release out, nothing lost. */
@Timeout(150)
class EndToEndIT {

  private static final int SAMPLES_PER_MODEL = 300;
  private static final int RELEASE_EVERY_OF_P1 = 3;

  @RegisterExtension
  static final KafkaHarness kafka = KafkaHarness.perClass();

  @Test
  void everySampleIsLearnedOnceAndItsReleaseIsTheEstimatorsBitForBit(@TempDir Path stateDir) {
    List<ModelConfig> models = ItModels.models(RELEASE_EVERY_OF_P1);
    ServiceConfig config = ItModels.serviceConfig("e2e", models, kafka.bootstrapServers(), stateDir.toString());
    Topics topics = kafka.createTopics(config.topics());
    List<SampleRow> rows = SyntheticStream.generate(models, SAMPLES_PER_MODEL, 20240501L);
    Map<String, List<ReleaseFacts>> expected = ReferenceReleases.of(models, rows);
    int expectedReleases = 2 * SAMPLES_PER_MODEL + SAMPLES_PER_MODEL / RELEASE_EVERY_OF_P1; // N, N and N/k
    assertEquals(expectedReleases, ReferenceReleases.count(expected));

    try (InProcessService service = new InProcessService(config);
        CommittedTopicReader<ModelRelease> releases = kafka.releasesReader(topics);
        CommittedTopicReader<RejectedRecord> rejected = kafka.rejectedReader(topics)) {
      List<RecordMetadata> acks = kafka.produceSamples(topics.samples().name(), rows);
      assertEquals(Set.of(0, 1), acks.stream().map(RecordMetadata::partition).collect(Collectors.toSet()),
          "the models' keys must spread over both sample partitions, so the service runs two tasks");

      releases.awaitAtLeast(expectedReleases, Duration.ofSeconds(90), service::isUp, service::describe);
      releases.readFor(Duration.ofSeconds(1));
      rejected.readFor(Duration.ofMillis(200));

      assertEquals(expectedReleases, releases.count(), "committed releases");
      ReleaseAssertions.assertReleasesMatchReference(expected, releases.records());
      assertEquals(0, rejected.count(), "rejected records");
      assertEquals(rows.size(), service.counterSum("dpstream.samples.processed"), "samples processed (metric)");
    }
  }
}
