package org.dpstream.service.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.kafka.Topics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A person-level model ({@code privacyUnit: {by: user, maxContributions: 5}}) on a real broker, run as
 * {@code dpstream run} in a child JVM and killed with -9 mid-stream: persons sending 1 to 20 samples each have their
 * first five learnt and every later one rejected with CONTRIBUTION_LIMIT, exactly once each; the releases are
 * consecutive and bit for bit the estimator run in core over the bounded stream, as if there had been no crash (a
 * replayed sample is neither counted nor learnt twice).
 */
@Timeout(240)
class PersonLevelIT {

  private static final int K = 5;
  private static final int PERSONS = 40;
  @RegisterExtension
  static final KafkaHarness kafka = KafkaHarness.perClass();

  @Test
  void eachPersonsSixthSampleIsRejectedAndAKillChangesNothing(@TempDir Path work) throws Exception {
    ModelConfig model = ItModels.models(1).get(0).withPrivacyUnit(Map.of("by", "user", "maxContributions", K));
    ServiceConfig config =
        ItModels.serviceConfig("person-level", List.of(model), kafka.bootstrapServers(), work.resolve("state").toString());
    Path configFile = ConfigFiles.write(config, work.resolve("config.yaml"));
    Topics topics = kafka.createTopics(config.topics());

    // person i sends 1 + (7 i mod 20) samples, 1 to 20, interleaved round-robin
    List<SampleRow> template = SyntheticStream.generate(List.of(model), 20 * PERSONS, 7L);
    List<SampleRow> rows = new ArrayList<>();
    List<SampleRow> learnt = new ArrayList<>();
    Map<String, Integer> sent = new HashMap<>();
    int next = 0;
    for (int round = 0; round < 20; round++) {
      for (int i = 0; i < PERSONS; i++) {
        if (round < 1 + (7 * i) % 20) {
          SampleRow base = template.get(next++);
          SampleRow row = new SampleRow(model.id(), base.features(), base.label(), "person-" + i);
          rows.add(row);
          if (sent.merge(row.userId(), 1, Integer::sum) <= K) {
            learnt.add(row);
          }
        }
      }
    }
    int rejected = rows.size() - learnt.size();
    String suffix = " per user, k=" + K;
    List<ReleaseFacts> expected = new ArrayList<>();
    for (ReleaseFacts facts : ReferenceReleases.of(List.of(model), learnt).get(model.id())) {
      expected.add(new ReleaseFacts(facts.modelId(), facts.step(), facts.epoch(), facts.parameterBits(),
          facts.algorithm() + suffix, facts.pBits(), facts.epsilonBits(), facts.deltaBits(), facts.accountant(),
          facts.horizon(), facts.ledgerEpoch(), facts.epsilonSpentBits(), facts.deltaSpentBits()));
    }
    int half = rows.size() / 2;

    try (CommittedTopicReader<ModelRelease> releases = kafka.releasesReader(topics);
        CommittedTopicReader<RejectedRecord> rejections = kafka.rejectedReader(topics)) {
      kafka.produceSamples(topics.samples().name(), rows.subList(0, half));
      try (ServiceProcess service = ServiceProcess.start(configFile, work.resolve("first.log"))) {
        releases.awaitAtLeast(learnt.size() / 4, Duration.ofSeconds(90), service::isAlive, service::logTail);
        service.kill();
      }
      kafka.produceSamples(topics.samples().name(), rows.subList(half, rows.size()));
      try (ServiceProcess service = ServiceProcess.start(configFile, work.resolve("second.log"))) {
        releases.awaitAtLeast(learnt.size(), Duration.ofSeconds(120), service::isAlive, service::logTail);
        rejections.awaitAtLeast(rejected, Duration.ofSeconds(60), service::isAlive, service::logTail);
        releases.readFor(Duration.ofSeconds(1));
        rejections.readFor(Duration.ofSeconds(1));
      }
      ReleaseAssertions.assertReleasesMatchReference(Map.of(model.id(), expected), releases.records());
      for (ConsumerRecord<String, ModelRelease> release : releases.records()) {
        assertEquals("user", release.value().getLedger().getPrivacyUnit());
        assertEquals(K, release.value().getLedger().getMaxContributions());
      }
      assertEquals(rejected, rejections.count(), "every sample after a person's fifth is rejected exactly once");
      for (ConsumerRecord<String, RejectedRecord> record : rejections.records()) {
        assertEquals("CONTRIBUTION_LIMIT", record.value().getReason());
        assertFalse(record.value().getMessage().contains("person-"), record.value().getMessage());
      }
      assertTrue(rejected > 0 && learnt.size() < rows.size());
    }
  }
}
