package org.dpstream.service.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.dpstream.service.it.HttpProbes.await;
import static org.dpstream.service.it.HttpProbes.awaitStatus;
import static org.dpstream.service.it.HttpProbes.freePort;
import static org.dpstream.service.it.HttpProbes.get;
import static org.dpstream.service.it.HttpProbes.post;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.config.TopicCreation;
import org.dpstream.service.health.HealthCheck;
import org.dpstream.service.health.KafkaStreamsStatus;
import org.dpstream.service.kafka.TopicNames;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.metrics.MetricsServer;
import org.dpstream.service.metrics.Promtool;
import org.dpstream.service.metrics.ScrapedFamilies;
import org.dpstream.service.streams.DpstreamService;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an operator checks on a real broker: {@code run} creates its missing topics as configured, the
 * service answers {@code /health} and {@code /ready}, {@code /metrics} exports only public families by default and
 * passes {@code promtool check metrics},
 * and a stream thread that stalls or dies shows on {@code /ready}.
 */
@Timeout(180)
class OperationsIT {

  /** Short limits so the tests see a stall and the end of a failure window within seconds. */
  private static final HealthCheck.Policy FAST = new HealthCheck.Policy(Duration.ofSeconds(3), Duration.ofSeconds(10));

  @RegisterExtension
  static final KafkaHarness kafka = KafkaHarness.perClass();

  @Test
  void runCreatesItsMissingTopicsAndBecomesReady(@TempDir Path work) throws Exception {
    List<ModelConfig> models = ItModels.models(1);
    ServiceConfig shared = ItModels.serviceConfig("run-topics", models, kafka.bootstrapServers(),
        work.resolve("state").toString());
    int metricsPort = freePort();
    TopicCreation creation = new TopicCreation(true, 3, 1,
        Map.of("releases", Map.of(TopicConfig.RETENTION_MS_CONFIG, "-1")));
    ServiceConfig config = new ServiceConfig(shared.applicationId(), shared.topics(), models, shared.kafka(), metricsPort,
        List.of(), null, null, creation, "run-topics-1");
    Path file = ConfigFiles.write(config, work.resolve("run.yaml"));
    TopicNames names = config.topics();
    try (ServiceProcess service = ServiceProcess.start(file, work.resolve("run.log"));
        Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
      String base = "http://localhost:" + metricsPort;
      awaitStatus(base + "/ready", 200, Duration.ofSeconds(90), service);
      assertTrue(service.logContains("created topic " + names.samples()), service.logTail());

      List<String> used = List.of(names.samples(), names.releases(), names.rejected());
      Map<String, TopicDescription> topics = admin.describeTopics(used).allTopicNames().get(30, TimeUnit.SECONDS);
      for (TopicDescription topic : topics.values()) {
        assertEquals(3, topic.partitions().size(), topic.name());
      }
      assertFalse(admin.listTopics().names().get().contains(names.contexts()), "no bandits, no bandit topics");
      assertEquals(TopicCreation.REJECTED_RETENTION_MS,
          topicConfig(admin, names.rejected(), TopicConfig.RETENTION_MS_CONFIG));
      assertEquals("-1", topicConfig(admin, names.releases(), TopicConfig.RETENTION_MS_CONFIG));

      // The service it started works on the topics it created.
      Topics created = new Topics(names);
      List<SampleRow> rows = SyntheticStream.generate(models, 20, 3L);
      kafka.produceSamples(names.samples(), rows);
      try (CommittedTopicReader<ModelRelease> releases = new CommittedTopicReader<>(kafka.bootstrapServers(),
          names.releases(), 3, created.releases().valueSerde().deserializer())) {
        releases.awaitAtLeast(rows.size(), Duration.ofSeconds(60), service::isAlive, service::logTail);
      }
      HttpResponse<String> health = get(base + "/health");
      assertEquals(200, health.statusCode(), health.body());
      assertTrue(health.body().startsWith("alive\n"), health.body());
    }
  }

  @Test
  void withTopicCreationOffRunStopsNamingTheMissingTopics(@TempDir Path work) throws Exception {
    ServiceConfig shared = ItModels.serviceConfig("no-create", ItModels.models(1), kafka.bootstrapServers(),
        work.resolve("state").toString());
    ServiceConfig config = new ServiceConfig(shared.applicationId(), shared.topics(), shared.models(), shared.kafka(),
        0, List.of(), null, null, new TopicCreation(false, null, null, null), null);
    Path file = ConfigFiles.write(config, work.resolve("run.yaml"));
    try (ServiceProcess service = ServiceProcess.start(file, work.resolve("run.log"))) {
      assertEquals(1, service.awaitExit(Duration.ofSeconds(90)), service.logTail());
      assertTrue(service.logContains("run: missing topics [" + config.topics().samples() + ", "
          + config.topics().releases() + ", " + config.topics().rejected() + "]: create them, or set"
          + " createTopics.enabled: true"), service.logTail());
    }
  }

  /**
   * The default /metrics of a service with a model and a bandit decided by its deciders, after samples and HTTP
   * decisions and rewards: every family is public (MetricCatalog), the Kafka Streams metrics are bridged, and
   * promtool finds nothing to fix.
   */
  @Test
  void theServiceIsReadyAndItsMetricsArePublicAndPassPromtool(@TempDir Path work) throws Exception {
    String scrape = scrapeAfterTraffic(work, "lint", false);
    assertEquals(java.util.Set.of(), ScrapedFamilies.notPublic(scrape), "raw families on the default /metrics");
    java.util.Set<String> families = ScrapedFamilies.of(scrape);
    assertTrue(families.containsAll(List.of("kafka_stream_alive_stream_threads",
        "kafka_consumer_fetch_manager_records_lag_max", "dpstream_samples_processed_total", "dpstream_models",
        "dpstream_decider_decisions_total", "dpstream_bandit_rounds", "dpstream_ready")), families.toString());
    assertLintClean(scrape);
  }

  /** With metrics.raw: true the raw families appear too, Kafka's included, and still pass promtool. */
  @Test
  void withRawMetricsTheRawFamiliesAppear(@TempDir Path work) throws Exception {
    String scrape = scrapeAfterTraffic(work, "lint-raw", true);
    java.util.Set<String> raw = ScrapedFamilies.notPublic(scrape);
    assertTrue(raw.containsAll(List.of("kafka_producer_txn_commit_time_seconds_total",
        "kafka_consumer_incoming_byte_total", "dpstream_step_latency_seconds", "dpstream_samples_clipped_total",
        "dpstream_decider_decision_latency_seconds", "dpstream_bandit_decisions_by_arm_total",
        "dpstream_bandit_reward_cumulative")), raw.toString());
    assertLintClean(scrape);
  }

  private String scrapeAfterTraffic(Path work, String name, boolean raw) throws Exception {
    List<ModelConfig> models = ItModels.models(1);
    org.dpstream.service.config.BanditConfig bandit = new org.dpstream.service.config.BanditConfig("ops-bandit", 3, 2,
        "identity", 1.0, "inf", 2L, 1, 1e-5, 1_000, 1.0, 1.0, "5m", "drop", null, 1);
    ServiceConfig config = ItModels.serviceConfig(name, models, kafka.bootstrapServers(), work.toString())
        .withBandits(List.of(bandit))
        .withDecider(org.dpstream.service.config.DeciderConfig.deciders(0, true).withAuthentication("none", null))
        .withMetrics(org.dpstream.service.config.MetricsConfig.raw(raw));
    Topics topics = kafka.createTopics(config.topics());
    List<SampleRow> rows = SyntheticStream.generate(models, 30, 4L);
    kafka.produceSamples(topics.samples().name(), rows);
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (DpstreamService service = DpstreamService.start(config, ItModels.noiseKey(), registry);
        MetricsServer server = MetricsServer.start(registry, 0).serveHealth(service.health());
        CommittedTopicReader<ModelRelease> releases = kafka.releasesReader(topics)) {
      releases.awaitAtLeast(rows.size(), Duration.ofSeconds(60));
      String base = "http://localhost:" + server.port();
      HttpResponse<String> ready = awaitStatus(base + "/ready", 200, Duration.ofSeconds(30), null);
      assertTrue(ready.body().startsWith("ready\nstate RUNNING"), ready.body());
      String api = "http://localhost:" + service.deciders().orElseThrow().httpPort().getAsInt() + "/v1/bandits/"
          + bandit.id();
      for (int i = 0; i < 6; i++) {
        HttpResponse<String> decided = post(api + "/decide", "{\"requestId\":\"q" + i + "\",\"context\":[0.5,"
            + 0.1 * i + ",-0.2]}");
        assertEquals(200, decided.statusCode(), decided.body());
        assertEquals(200, post(api + "/reward", "{\"requestId\":\"q" + i + "\",\"reward\":0.5}").statusCode());
      }
      releases.awaitAtLeast(rows.size() + 2, Duration.ofSeconds(60)); // a bandit round released
      String scrape = get(base + "/metrics").body();
      System.out.printf("/metrics with %s metrics: %d series, %d bytes, %d of them Kafka series%n",
          raw ? "raw" : "public", ScrapedFamilies.series(scrape), scrape.getBytes(StandardCharsets.UTF_8).length,
          scrape.lines().filter(line -> line.startsWith("kafka_")).count());
      return scrape;
    }
  }

  private static void assertLintClean(String scrape) throws Exception {
    Path promtool = Promtool.find().orElse(null);
    Assumptions.assumeTrue(promtool != null, Promtool.MISSING);
    Promtool.Result lint = Promtool.checkMetrics(promtool, scrape);
    assertTrue(lint.clean(), "promtool check metrics:\n" + lint.output());
  }

  @Test
  void aThreadBlockedInAProcessorIsNotReadyUntilItMovesAgain(@TempDir Path work) throws Exception {
    CountDownLatch unblock = new CountDownLatch(1);
    String input = kafka.createTopics(ItModels.topicNames("stall.")).samples().name();
    try (Probe probe = Probe.start(work, "stall", input, value -> {
      if (value.equals("block")) {
        awaitQuietly(unblock);
      }
    })) {
      probe.awaitReady();
      kafka.produce(input, List.of(record("block")));
      HttpResponse<String> stalled = awaitStatus(probe.url("/ready"), 503, Duration.ofSeconds(30), null);
      assertTrue(stalled.body().startsWith("not ready\n") && stalled.body().contains("stalled: no poll for more than"),
          stalled.body());
      assertEquals(200, get(probe.url("/health")).statusCode(), "stalled, not dead");
      unblock.countDown();
      awaitStatus(probe.url("/ready"), 200, Duration.ofSeconds(30), null);
    } finally {
      unblock.countDown();
    }
  }

  @Test
  void aThreadThatDiedIsNotReadyForTheFailureWindow(@TempDir Path work) throws Exception {
    AtomicBoolean failed = new AtomicBoolean();
    String input = kafka.createTopics(ItModels.topicNames("boom.")).samples().name();
    try (Probe probe = Probe.start(work, "boom", input, value -> {
      if (value.equals("boom") && failed.compareAndSet(false, true)) {
        throw new IllegalStateException("deliberate failure");
      }
    })) {
      probe.awaitReady();
      kafka.produce(input, List.of(record("boom")));
      HttpResponse<String> notReady = awaitStatus(probe.url("/ready"), 503, Duration.ofSeconds(30), null);
      assertTrue(failed.get());
      // Rebalancing after the replacement may be listed first; the failure stays listed for the window.
      HttpResponse<String> failure = await(probe.url("/ready"), r -> r.body().contains("a stream thread failed"),
          Duration.ofSeconds(10), null);
      assertEquals(503, failure.statusCode(), notReady.body());
      assertEquals(200, get(probe.url("/health")).statusCode(), "the replacement thread lives");
      awaitStatus(probe.url("/ready"), 200, Duration.ofSeconds(40), null);
    }
  }

  /**
   * A minimal Kafka Streams application with the service's health endpoints and thread-failure handling
   * (record the failure, replace the thread), whose one processor does what the test asks.
   */
  private record Probe(KafkaStreams streams, MetricsServer server) implements AutoCloseable {

    static Probe start(Path work, String name, String input, java.util.function.Consumer<String> onValue)
        throws IOException {
      Topology topology = new Topology();
      topology.addSource("in", Serdes.String().deserializer(), Serdes.String().deserializer(), input);
      topology.addProcessor("probe", () -> new Processor<String, String, Void, Void>() {
        @Override
        public void process(Record<String, String> record) {
          onValue.accept(record.value());
        }
      }, "in");
      Properties properties = new Properties();
      properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "it-probe-" + name);
      properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      properties.put(StreamsConfig.STATE_DIR_CONFIG, work.toString());
      properties.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100");
      properties.put("session.timeout.ms", "6000");
      properties.put("heartbeat.interval.ms", "1000");
      KafkaStreams streams = new KafkaStreams(topology, properties);
      KafkaStreamsStatus status = new KafkaStreamsStatus(streams);
      streams.setUncaughtExceptionHandler(exception -> {
        status.recordThreadFailure(Instant.now());
        return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
      });
      streams.start();
      MetricsServer server = MetricsServer.start(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), 0)
          .serveHealth(new HealthCheck(status, FAST, Clock.systemUTC()));
      return new Probe(streams, server);
    }

    String url(String path) {
      return "http://localhost:" + server.port() + path;
    }

    void awaitReady() throws Exception {
      awaitStatus(url("/ready"), 200, Duration.ofSeconds(60), null);
    }

    @Override
    public void close() {
      server.close();
      streams.close(Duration.ofSeconds(10));
    }
  }

  private static KafkaHarness.RawRecord record(String value) {
    return new KafkaHarness.RawRecord("k".getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(120, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static String topicConfig(Admin admin, String topic, String key)
      throws InterruptedException, ExecutionException, TimeoutException {
    ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    Config config = admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource);
    return config.get(key).value();
  }
}
