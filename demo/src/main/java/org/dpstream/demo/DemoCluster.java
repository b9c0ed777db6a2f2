package org.dpstream.demo;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.BindException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.streams.StreamsConfig;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.DeciderConfig;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.decide.http.ApiTokens;
import org.dpstream.service.kafka.TopicNames;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.metrics.MetricsServer;
import org.dpstream.service.serde.OutputFormat;
import org.dpstream.service.streams.DpstreamService;
import org.dpstream.testkit.EmbeddedKafka;
import org.dpstream.testkit.TemporaryDirectory;

/**
 * Everything a deployment has, on one machine: a real single-node Kafka (KRaft, in this JVM, in a
 * temporary directory) with dpstream's topics, the service with the demo's models, and /metrics.
 * {@link #close()} stops it all and deletes every file it wrote.
 */
final class DemoCluster implements AutoCloseable {

  static final String APPLICATION_ID = "dpstream-demo";
  /** Several partitions, so the models are spread over tasks as in a real deployment. */
  private static final int PARTITIONS = 3;
  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

  private final TemporaryDirectory stateDirectory;
  private final EmbeddedKafka kafka;
  private final Topics topics;
  private final MetricsServer metrics;
  private final DpstreamService service;
  private final PrometheusMeterRegistry registry;

  private DemoCluster(TemporaryDirectory stateDirectory, EmbeddedKafka kafka, Topics topics, MetricsServer metrics,
      DpstreamService service, PrometheusMeterRegistry registry) {
    this.stateDirectory = stateDirectory;
    this.kafka = kafka;
    this.topics = topics;
    this.metrics = metrics;
    this.service = service;
    this.registry = registry;
  }

  /**
   * Starts broker, topics, metrics and service, and returns once the service is running.
   *
   * @param horizon samples per model, the models' tree horizon
   * @param outputFormat how the service writes releases, decisions and rejections
   * @param kafkaPort the broker's client port; 0 for any free one
   * @param workDirectory where the service's local state lives during the run
   * @param log where to say what is happening
   */
  static DemoCluster start(List<DemoModel> models, List<BanditConfig> bandits, long horizon, int metricsPort,
      OutputFormat outputFormat, int kafkaPort, Path workDirectory, PrintWriter log)
      throws InterruptedException {
    // Kafka Streams keeps local state under state.dir: a fresh one per run, so no earlier run's state
    // (whose changelogs died with its broker) can be picked up, and deleted on close.
    TemporaryDirectory stateDirectory = TemporaryDirectory.createIn(workDirectory, "streams-state-");
    EmbeddedKafka kafka = null;
    MetricsServer metrics = null;
    DpstreamService service = null;
    try {
      kafka = EmbeddedKafka.builder().brokerPort(kafkaPort).start();
      log.println("Kafka broker (KRaft, in-process, temporary directory) at " + kafka.bootstrapServers());
      // The deciders decide (decider.inTopology: false, the default): the environment's contexts on the Kafka
      // path, and the HTTP API on a free port of this host for anyone who wants to try it, with a token made for
      // this run (its file, in the run's temporary directory, holds only the token's digest).
      Path tokens = stateDirectory.path().resolve("api-tokens");
      String apiToken;
      try {
        apiToken = ApiTokens.writeNewTokenFile(tokens, "demo");
      } catch (IOException e) {
        throw new UncheckedIOException("could not write the decision API's token file " + tokens, e);
      }
      ServiceConfig config = serviceConfig(models, horizon, kafka, stateDirectory, metricsPort).withBandits(bandits)
          .withOutputFormat(outputFormat).withDecider(DeciderConfig.deciders(0, true)
              .withHttpAddress(InetAddress.getLoopbackAddress().getHostAddress())
              .withAuthentication("bearer", tokens.toString()));
      Topics topics = new Topics(config.topics());
      kafka.createTopics(topics.newTopics(PARTITIONS));
      PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      metrics = startMetrics(registry, metricsPort, log);
      log.println("Prometheus metrics at http://localhost:" + metrics.port() + "/metrics");
      log.println("Noise key: a random one-off key from SecureRandom, held only in memory (this run's noise cannot"
          + " be regenerated; the run command reads its key from " + NoiseKey.ENVIRONMENT_VARIABLE + " or "
          + NoiseKey.FILE_ENVIRONMENT_VARIABLE + ")");
      NoiseKey key = NoiseKey.random();
      try {
        service = DpstreamService.start(config, key, registry);
      } finally {
        key.destroy(); // the service has derived what it needs
      }
      metrics.serveHealth(service.health());
      if (!service.awaitRunning(STARTUP_TIMEOUT)) {
        throw new IllegalStateException("the service did not reach RUNNING within " + STARTUP_TIMEOUT
            + " (state " + service.state() + ")");
      }
      service.deciders().flatMap(d -> d.httpPort().isPresent()
          ? java.util.Optional.of(d.httpPort().getAsInt()) : java.util.Optional.empty())
          .ifPresent(port -> log.println("Bandit decisions: the HTTP API is at http://localhost:" + port
              + "/v1/bandits/{id}/decide and /reward, for this host only; this run's token (header 'Authorization:"
              + " Bearer " + apiToken + "') is made anew each run"));
      if (!bandits.isEmpty()) {
        log.println("Bandit decisions: the simulated environment uses the Kafka path: contexts to "
            + topics.contexts().name() + ", decided by the deciders from the released parameters (outside the"
            + " learning transaction), decisions from " + topics.decisions().name() + "; learning reads the decision log "
            + topics.decided().name() + " (decider.inTopology: false)");
      }
      log.println("Service running: " + models.size() + " models, " + bandits.size() + " bandit(s), topics "
          + String.join(", ",
          topics.samples().name(), topics.releases().name(), topics.rejected().name())
          + "; outputs in " + outputFormat.name().toLowerCase(Locale.ROOT));
      log.flush();
      return new DemoCluster(stateDirectory, kafka, topics, metrics, service, registry);
    } catch (RuntimeException | InterruptedException | Error e) {
      closeAll(service, metrics, kafka, stateDirectory);
      throw e;
    }
  }

  private static ServiceConfig serviceConfig(List<DemoModel> models, long horizon, EmbeddedKafka kafka,
      TemporaryDirectory stateDirectory, int metricsPort) {
    List<ModelConfig> configs = models.stream().map(m -> m.toConfig(horizon)).toList();
    Map<String, String> streams = Map.of(
        StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        StreamsConfig.STATE_DIR_CONFIG, stateDirectory.path().toAbsolutePath().toString());
    return new ServiceConfig(APPLICATION_ID, TopicNames.defaults(), configs, streams, metricsPort);
  }

  /** The requested port, or any free one if it is taken: a busy 9400 should not stop a demo. */
  private static MetricsServer startMetrics(PrometheusMeterRegistry registry, int port, PrintWriter log) {
    try {
      try {
        return MetricsServer.start(registry, port);
      } catch (BindException taken) {
        log.println("Port " + port + " is in use; serving metrics on a free port instead (--metrics-port to choose)");
        return MetricsServer.start(registry, 0);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not serve /metrics", e);
    }
  }

  Topics topics() {
    return topics;
  }

  /** Settings every client of the embedded broker needs. */
  Map<String, Object> clientConfig() {
    return kafka.clientConfig();
  }

  String bootstrapServers() {
    return kafka.bootstrapServers();
  }

  /** The total of a counter over all its tags (0 if nothing counted it yet), as /metrics shows it. */
  double counterTotal(String name) {
    return registry.find(name).counters().stream().mapToDouble(io.micrometer.core.instrument.Counter::count).sum();
  }

  int metricsPort() {
    return metrics.port();
  }

  @Override
  public void close() {
    closeAll(service, metrics, kafka, stateDirectory);
  }

  /** Closes in order (service before broker), each even if an earlier one failed. */
  private static void closeAll(AutoCloseable... resources) {
    RuntimeException failure = null;
    for (AutoCloseable resource : resources) {
      if (resource == null) {
        continue;
      }
      try {
        resource.close();
      } catch (Exception e) {
        if (failure == null) {
          failure = new IllegalStateException("shutting the demo down failed", e);
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
