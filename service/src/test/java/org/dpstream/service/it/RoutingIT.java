package org.dpstream.service.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.zip.CRC32;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.schemas.Reward;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.DeciderConfig;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.streams.RoutingTopicCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model's identity does not depend on where its samples were written (ARCHITECTURE.md 4.8). Each
 * model's samples go, in turn, to every partition of dp.samples by explicit partition, then to the
 * partition a CRC32 partitioner (kcat's default) picks, then, after dp.samples grows by two partitions
 * mid-run, to the new partitions. Every model must publish one consecutive run of steps, no step twice,
 * equal bit for bit to its estimator run directly over its samples in order, which is what a run with
 * all samples on one partition publishes ({@link EndToEndIT}). A bandit's contexts and rewards, written
 * to partitions its key would never pick, must meet.
 *
 * <p>Cross-partition order is not defined in Kafka, so the test sends one sample per model per round and
 * waits for the round's releases before the next: the order of each model's samples is then fixed, and
 * the comparison can be bit for bit.
 */
@Timeout(240)
class RoutingIT {

  private static final int ROUNDS_PER_PHASE = 8;
  private static final int ADDED_PARTITIONS = 2;

  /** Rewards may come a minute (of record time) after their context, however slow the machine. */
  private static final BanditConfig BANDIT = new BanditConfig("routed-bandit", ItModels.DIMENSION, 3, "identity", 1.0,
      "0.1", 20L, 1, 1e-5, 2_000, 1.0, 1.0, "60s", "drop", null, 1);

  @RegisterExtension
  static final KafkaHarness kafka = KafkaHarness.perClass();

  /** kcat's default partitioner (librdkafka consistent_random): CRC32 of the key. */
  private static int crc32Partition(String key, int partitions) {
    CRC32 crc = new CRC32();
    crc.update(key.getBytes(StandardCharsets.UTF_8));
    return (int) (crc.getValue() % partitions);
  }

  @Test
  void everyModelHasOneRunOfStepsWhateverPartitionItsSamplesWereWrittenTo(@TempDir Path stateDir) {
    List<ModelConfig> models = ItModels.models(1);
    ServiceConfig base = ItModels.serviceConfig("routing", models, kafka.bootstrapServers(), stateDir.toString());
    Map<String, String> settings = new HashMap<>(base.kafka());
    settings.put("metadata.max.age.ms", "1000"); // see the added partitions within a second
    // Decided in the topology: this test is about routing a bandit's contexts and rewards to its one task.
    ServiceConfig config = new ServiceConfig(base.applicationId(), base.topics(), models, settings, 0,
        List.of(BANDIT)).withDecider(DeciderConfig.decidingInTopology());
    Topics topics = kafka.createTopics(config.topics());
    String samples = topics.samples().name();
    int partitions = ItModels.SAMPLE_PARTITIONS;
    List<SampleRow> rows = SyntheticStream.generate(models, 3 * ROUNDS_PER_PHASE, 20261123L);
    Map<String, List<SampleRow>> byModel = new LinkedHashMap<>();
    rows.forEach(row -> byModel.computeIfAbsent(row.modelId(), id -> new ArrayList<>()).add(row));
    List<SampleRow> inOrderOfEachModel = new ArrayList<>();
    for (int round = 0; round < 3 * ROUNDS_PER_PHASE; round++) {
      for (List<SampleRow> ofModel : byModel.values()) {
        inOrderOfEachModel.add(ofModel.get(round));
      }
    }
    Map<String, List<ReleaseFacts>> expected = ReferenceReleases.of(models, inOrderOfEachModel);
    int kcatPartitions = partitions;
    assertTrue(models.stream().anyMatch(m -> crc32Partition(m.id(), kcatPartitions)
            != BuiltInPartitioner.partitionForKey(m.id().getBytes(StandardCharsets.UTF_8), kcatPartitions)),
        "some model's CRC32 partition must differ from the Java client's, or the test proves nothing");

    try (InProcessService service = new InProcessService(config);
        CommittedTopicReader<ModelRelease> releases = kafka.releasesReader(topics);
        CommittedTopicReader<RejectedRecord> rejected = kafka.rejectedReader(topics);
        CommittedTopicReader<DecisionResponse> decisions = kafka.decisionsReader(topics)) {
      Set<Integer> used = new java.util.TreeSet<>();
      int round = 0;
      for (int phase = 0; phase < 3; phase++) {
        if (phase == 2) {
          partitions += ADDED_PARTITIONS;
          kafka.addPartitions(samples, partitions);
        }
        for (int r = 0; r < ROUNDS_PER_PHASE; r++, round++) {
          List<KafkaHarness.PartitionedRecord> batch = new ArrayList<>();
          int m = 0;
          for (Map.Entry<String, List<SampleRow>> model : byModel.entrySet()) {
            SampleRow row = model.getValue().get(round);
            int partition = switch (phase) {
              case 0 -> (round + m) % partitions;                                  // every partition in turn
              case 1 -> crc32Partition(model.getKey(), partitions);                // kcat's partitioner
              default -> partitions - ADDED_PARTITIONS + (round + m) % ADDED_PARTITIONS; // the new partitions
            };
            batch.add(new KafkaHarness.PartitionedRecord(partition, row.key(), row.avro()));
            m++;
          }
          kafka.produceTo(samples, batch).stream().map(RecordMetadata::partition).forEach(used::add);
          releases.awaitAtLeast((round + 1) * models.size(), Duration.ofSeconds(60), service::isUp, service::describe);
        }
      }
      assertEquals(Set.of(0, 1, 2, 3), used, "samples were written to every partition, old and added");

      // A bandit's context and its reward, each on the partition its key's hash would not choose.
      String bandit = BANDIT.id();
      int home = BuiltInPartitioner.partitionForKey(bandit.getBytes(StandardCharsets.UTF_8), ItModels.SAMPLE_PARTITIONS);
      byte[] context = DpSerdes.decisionRequest().encode(DecisionRequest.newBuilder().setRequestId("r-1")
          .setContext(List.of(0.1, -0.2, 0.3, 0.0, 0.05)).build());
      kafka.produceTo(topics.contexts().name(), List.of(new KafkaHarness.PartitionedRecord(1 - home,
          bandit.getBytes(StandardCharsets.UTF_8), context)));
      decisions.awaitAtLeast(1, Duration.ofSeconds(60), service::isUp, service::describe);
      byte[] reward = DpSerdes.reward().encode(Reward.newBuilder().setRequestId("r-1").setReward(0.5).build());
      kafka.produceTo(topics.rewards().name(), List.of(new KafkaHarness.PartitionedRecord(home,
          bandit.getBytes(StandardCharsets.UTF_8), reward)));
      int armReleases = BANDIT.arms();
      releases.awaitAtLeast(rows.size() + armReleases, Duration.ofSeconds(60), service::isUp, service::describe);
      releases.readFor(Duration.ofSeconds(1));
      rejected.readFor(Duration.ofMillis(300));

      List<ConsumerRecord<String, ModelRelease>> modelReleases = releases.records().stream()
          .filter(r -> !r.key().startsWith(bandit + "/")).toList();
      ReleaseAssertions.assertReleasesMatchReference(expected, modelReleases);
      Map<String, Long> banditSteps = releases.records().stream().filter(r -> r.key().startsWith(bandit + "/"))
          .collect(Collectors.groupingBy(ConsumerRecord::key, Collectors.counting()));
      assertEquals(armReleases, banditSteps.size(), "one round, every arm released once: " + banditSteps);
      assertTrue(banditSteps.values().stream().allMatch(n -> n == 1), banditSteps.toString());
      assertEquals(0, rejected.count(), "nothing rejected: " + rejected.records());
    }
  }

  /**
   * routingPartitions is fixed for the application's life. Restarted with another count, Kafka Streams finds
   * the routing topic with the old count: the service learns nothing more (its threads fail and are
   * replaced, and /ready says so), and `run` refuses to start it at all, naming the key.
   */
  @Test
  void anotherRoutingPartitionCountIsRefusedAndLearnsNothing(@TempDir Path stateDir) throws Exception {
    List<ModelConfig> models = ItModels.models(1);
    ServiceConfig six = ItModels.serviceConfig("routing-count", models, kafka.bootstrapServers(), stateDir.toString());
    ServiceConfig four = six.withRoutingPartitions(4);
    Topics topics = kafka.createTopics(six.topics());
    List<SampleRow> rows = SyntheticStream.generate(models, 2, 7L);
    try (CommittedTopicReader<ModelRelease> releases = kafka.releasesReader(topics);
        Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
      RoutingTopicCheck.verify(admin, four); // before the first start any count is fine
      try (InProcessService service = new InProcessService(six)) {
        kafka.produceSamples(topics.samples().name(), rows.subList(0, 3));
        releases.awaitAtLeast(3, Duration.ofSeconds(60), service::isUp, service::describe);
      }
      RoutingTopicCheck.verify(admin, six);
      IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
          () -> RoutingTopicCheck.verify(admin, four));
      assertTrue(refused.getMessage().startsWith("routingPartitions is 4 but the routing topic"
          + " it-routing-count-model-routing-repartition has 6 partitions"), refused.getMessage());
      try (InProcessService started = new InProcessService(four)) {
        kafka.produceSamples(topics.samples().name(), rows.subList(3, rows.size()));
        releases.readFor(Duration.ofSeconds(15));
        assertEquals(3, releases.count(), "nothing learnt with the other count");
        assertTrue(!started.service.health().readiness().ok(), "and /ready says so");
      }
    }
  }
}
