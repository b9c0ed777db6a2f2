package org.dpstream.service.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.dpstream.core.erm.ErmDataset;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.acl.RequiredAcls;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.ConfigLoader;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.dda.DdaNodeConfig;
import org.dpstream.service.kafka.TopicNames;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.streams.TopologyTopics;
import org.dpstream.service.testing.CommandRun;
import org.dpstream.testkit.ClientIdentity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service on a secured broker (SASL_SSL with SCRAM-SHA-512, ACLs enforced, nothing allowed without one)
 * with exactly the ACLs {@code dpstream acls --apply} creates for its config, its password read from a file by
 * Kafka's config provider rather than written in its config: it creates its topics, learns three models
 * and a bandit (decided over HTTP and on the Kafka path), is killed mid-stream and restarted, and every model
 * release is committed exactly once, bit for bit as the estimators run directly, every arm's rounds released
 * once each. Then a second principal, authenticated by its certificate (mTLS) and granted only the
 * releases-reader ACLs, reads the releases (with {@code consume --command-config}) and is refused on every
 * other topic: the raw data, the decisions, the changelogs and routing topics. DP-DDA nodes run with exactly the
 * ACLs of their role too.
 */
@Timeout(420)
class SecuredServiceIT {

  private static final int SAMPLES_PER_MODEL = 150;
  private static final double KILL_AFTER_COMMITTED = 0.3;
  private static final int D = 5;
  private static final BanditConfig BANDIT = new BanditConfig("secured-bandit", D, 3, "identity", 1.0, "inf", 10L, 1,
      1e-5, 5_000, 1.0, 1.0, "5m", "drop", null, 1);
  private static final int ROUNDS_BEFORE = 60;
  private static final int ROUNDS_AFTER = 40;
  private static final int KAFKA_PATH_CONTEXTS = 10;

  @RegisterExtension
  static final KafkaHarness kafka = KafkaHarness.securedPerClass();

  private final SplittableRandom random = new SplittableRandom(23); // simulation only

  @Test
  void withExactlyItsAclsTheServiceLearnsExactlyOnceAcrossAKillAndAReaderOfReleasesSeesNothingElse(
      @TempDir Path work) throws Exception {
    ClientIdentity principal = kafka.broker().scramUser("dpstream");
    int port = freePort();
    List<ModelConfig> models = ItModels.models(1);
    ServiceConfig config = SecuredConfigs.withLoginInFile(SecuredConfigs.service("secured", models, BANDIT,
        principal, work.resolve("state").toString(), port), work.resolve("kafka-login.properties"));
    Path configFile = ConfigFiles.write(config, work.resolve("service.yaml"));
    // The ACLs as an operator creates them: dpstream acls --apply, with an administrator's client settings.
    ClientIdentity admin = new ClientIdentity("User:admin", stringValues(kafka.broker().clientConfig()));
    Path adminProperties = admin.writeProperties(work.resolve("admin.properties"));
    CommandRun apply = CommandRun.service("acls", "--config", configFile.toString(), "--principal",
        principal.principal(), "--apply", "--bootstrap-server", admin.settings().get("bootstrap.servers"),
        "--command-config", adminProperties.toString());
    assertEquals(0, apply.exitCode(), apply.err());
    kafka.broker().awaitAcls(RequiredAcls.forService(config).bindings(principal.principal()));
    Topics topics = new Topics(config.topics());
    List<SampleRow> rows = SyntheticStream.generate(models, SAMPLES_PER_MODEL, 314L);
    Map<String, List<ReleaseFacts>> expected = ReferenceReleases.of(models, rows);
    int half = rows.size() / 2;
    DecisionApiClient api = new DecisionApiClient(port, BANDIT.id(), null);

    ExecutorService liveProducer = Executors.newSingleThreadExecutor();
    try {
      try (ServiceProcess first = ServiceProcess.start(configFile, work.resolve("first.log"))) {
        api.awaitUp(first, Duration.ofSeconds(150)); // by then it has created its topics
        try (CommittedTopicReader<ModelRelease> releases = kafka.releasesReader(topics)) {
          decideAndReward(api, "before-", ROUNDS_BEFORE);
          sendContexts(topics, "kafka-path-", KAFKA_PATH_CONTEXTS);
          awaitArmStep(releases, ROUNDS_BEFORE, first);
          AtomicInteger produced = new AtomicInteger();
          CompletableFuture<Void> live = CompletableFuture.runAsync(() -> kafka.produceLive(topics.samples().name(),
              rows.subList(0, half), 10, 20, produced), liveProducer);
          awaitModelReleases(releases, (int) (rows.size() * KILL_AFTER_COMMITTED / 2), first);
          first.kill();
          live.get(60, TimeUnit.SECONDS);
        }
      }
      try (ServiceProcess second = ServiceProcess.start(configFile, work.resolve("second.log"));
          CommittedTopicReader<ModelRelease> releases = kafka.releasesReader(topics)) {
        api.awaitUp(second, Duration.ofSeconds(150));
        decideAndReward(api, "after-", ROUNDS_AFTER);
        kafka.produceSamples(topics.samples().name(), rows.subList(half, rows.size()));
        awaitModelReleases(releases, rows.size(), second);
        awaitArmStep(releases, ROUNDS_BEFORE + ROUNDS_AFTER, second);
        releases.readFor(Duration.ofSeconds(1));

        List<ConsumerRecord<String, ModelRelease>> modelReleases = releases.records().stream()
            .filter(r -> !r.key().startsWith(BANDIT.id() + "/")).toList();
        ReleaseAssertions.assertReleasesMatchReference(expected, modelReleases);
        for (int arm = 0; arm < BANDIT.arms(); arm++) {
          String key = BANDIT.id() + "/arm-" + arm;
          assertEquals(LongStream.rangeClosed(1, ROUNDS_BEFORE + ROUNDS_AFTER).boxed().toList(),
              releases.records().stream().filter(r -> r.key().equals(key)).map(r -> r.value().getStep()).toList(),
              key + ": every round released once, in order, across the kill");
        }
        second.terminate(Duration.ofSeconds(60));
        assertTrue(second.logContains("dpstream stopped") && !second.logContains("access denied"), second.logTail());
        assertTrue(!work.resolve("first.log").toFile().exists() || !Files.readString(
            work.resolve("first.log")).contains("access denied"), "the first instance was refused something");
      }
    } finally {
      liveProducer.shutdownNow();
    }

    assertAReleasesReaderSeesOnlyReleases(config, work);
  }

  /** Two DP-DDA nodes as one SCRAM principal with exactly the dda-node ACLs run to the horizon and publish. */
  @Test
  void ddaNodesWithExactlyTheirAclsRunToTheEnd(@TempDir Path work) throws Exception {
    ClientIdentity principal = kafka.broker().scramUser("dda");
    List<ErmDataset> shards = DdaRunFiles.syntheticShards(DDA_NODES, 30, 77L);
    DdaRunFiles.writeShards(shards, work);
    Path configFile = work.resolve("dda.yaml");
    Files.writeString(configFile, DdaRunFiles.config("secured-dda", DDA_NODES, DDA_ROUNDS, shards, work, "secured",
        principal.settings()));
    DdaNodeConfig config = ConfigLoader.read(configFile, DdaNodeConfig.class);
    kafka.broker().grant(RequiredAcls.forDdaNode(config.topics()).bindings(principal.principal()));
    List<ServiceProcess> nodes = new ArrayList<>();
    try {
      for (int i = 0; i < DDA_NODES; i++) {
        nodes.add(ServiceProcess.startCommand(List.of("dda-node", "--node-id", Integer.toString(i), "--config",
            configFile.toString()), work.resolve("node-" + i + ".log")));
      }
      for (ServiceProcess node : nodes) {
        assertEquals(0, node.awaitExit(Duration.ofMinutes(3)), node.logTail());
      }
    } finally {
      nodes.forEach(ServiceProcess::close);
    }
    try (CommittedTopicReader<ModelRelease> models = new CommittedTopicReader<>(kafka.broker().clientConfig(),
        config.topics().models(), 1, DpSerdes.modelRelease().deserializer())) {
      models.awaitAtLeast(DDA_NODES, Duration.ofSeconds(30));
      assertTrue(models.records().stream().allMatch(r -> r.value().getStep() == DDA_ROUNDS), "every node's model");
    }
  }

  private static final int DDA_NODES = 2;
  private static final long DDA_ROUNDS = 20;

  /** A certificate principal with the releases-reader ACLs: releases yes, anything else refused. */
  private static void assertAReleasesReaderSeesOnlyReleases(ServiceConfig config, Path work) throws Exception {
    ClientIdentity reader = kafka.broker().certificateUser("analyst");
    kafka.broker().grant(RequiredAcls.forReleasesReader(config.topics()).bindings(reader.principal()));
    TopicNames names = config.topics();
    assertTrue(endOffsets(reader, names.releases()) instanceof Long offset && offset > 0, "the reader reads releases");

    Set<String> refused = new TreeSet<>(List.of(names.samples(), names.rejected(), names.contexts(),
        names.decisions(), names.rewards(), names.decided()));
    try (Admin admin = kafka.broker().admin()) {
      Set<String> internal = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
          .filter(topic -> topic.startsWith(config.applicationId() + "-")).collect(Collectors.toSet());
      assertEquals(TopologyTopics.of(config).internal(), internal,
          "the internal topics Kafka Streams created are the ones the ACLs were derived from");
      refused.addAll(internal);
    }
    for (String topic : refused) {
      assertInstanceOf(TopicAuthorizationException.class, endOffsets(reader, topic), topic + " is refused to the reader");
    }

    // consume, as an analyst would run it, with the reader's client settings in a properties file.
    Path properties = reader.writeProperties(work.resolve("reader.properties"));
    CommandRun releases = CommandRun.service("consume", "--bootstrap-server",
        reader.settings().get("bootstrap.servers"), "--command-config", properties.toString(), "--topic",
        names.releases(), "--from-beginning", "--max-messages", "5");
    assertEquals(0, releases.exitCode(), releases.err());
    assertEquals(5, releases.out().lines().filter(line -> line.startsWith("{\"key\":")).count(), releases.out());
    CommandRun samples = CommandRun.service("consume", "--bootstrap-server",
        reader.settings().get("bootstrap.servers"), "--command-config", properties.toString(), "--topic",
        names.samples(), "--from-beginning", "--timeout", "5s");
    assertEquals(2, samples.exitCode(), samples.err());
    assertTrue(samples.err().contains("Not authorized") && samples.err().contains(names.samples()), samples.err());
  }

  private static Map<String, String> stringValues(Map<String, Object> settings) {
    Map<String, String> strings = new java.util.HashMap<>();
    settings.forEach((key, value) -> strings.put(key, String.valueOf(value)));
    return strings;
  }

  /** The sum of the topic's end offsets as {@code identity} sees them, or the exception that refused it. */
  private static Object endOffsets(ClientIdentity identity, String topic) {
    Map<String, Object> settings = identity.clientConfig();
    settings.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 20_000);
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(settings, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = new ArrayList<>();
      for (int p = 0; p < ItModels.SAMPLE_PARTITIONS; p++) {
        partitions.add(new TopicPartition(topic, p));
      }
      return consumer.endOffsets(partitions, Duration.ofSeconds(20)).values().stream().mapToLong(Long::longValue).sum();
    } catch (RuntimeException e) {
      return e;
    }
  }

  private void decideAndReward(DecisionApiClient api, String prefix, int count) throws Exception {
    for (int i = 0; i < count; i++) {
      JsonNode decision = api.decide(prefix + i, context());
      api.reward(prefix + i, 0.3 * decision.get("arm").asInt() - 0.2);
    }
  }

  private void sendContexts(Topics topics, String prefix, int count) {
    List<KafkaHarness.RawRecord> records = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String json = "{\"requestId\":\"" + prefix + i + "\",\"context\":[" + context() + "]}";
      records.add(new KafkaHarness.RawRecord(BANDIT.id().getBytes(java.nio.charset.StandardCharsets.UTF_8),
          json.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }
    kafka.produce(topics.contexts().name(), records);
  }

  private String context() {
    StringBuilder values = new StringBuilder();
    for (int j = 0; j < D; j++) {
      values.append(j == 0 ? "" : ",").append(random.nextDouble(-1, 1));
    }
    return values.toString();
  }

  private static void awaitArmStep(CommittedTopicReader<ModelRelease> releases, long step, ServiceProcess process) {
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    while (releases.records().stream().filter(r -> r.key().equals(BANDIT.id() + "/arm-0"))
        .mapToLong(r -> r.value().getStep()).max().orElse(0) < step) {
      assertTrue(process.isAlive(), () -> "the service exited:\n" + process.logTail());
      assertTrue(System.nanoTime() < deadline, () -> "the bandit did not reach round " + step + "\n" + process.logTail());
      releases.poll();
    }
  }

  private static void awaitModelReleases(CommittedTopicReader<ModelRelease> releases, int count,
      ServiceProcess process) {
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    while (releases.records().stream().filter(r -> !r.key().startsWith(BANDIT.id() + "/")).count() < count) {
      assertTrue(process.isAlive(), () -> "the service exited:\n" + process.logTail());
      assertTrue(System.nanoTime() < deadline, () -> "fewer than " + count + " model releases\n" + process.logTail());
      releases.poll();
    }
  }

  private static int freePort() throws java.io.IOException {
    try (ServerSocket free = new ServerSocket(0)) {
      return free.getLocalPort();
    }
  }
}
