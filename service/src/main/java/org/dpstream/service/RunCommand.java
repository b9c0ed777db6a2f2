package org.dpstream.service;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.service.config.ConfigLoader;
import org.dpstream.service.decide.http.ApiSecurity;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.config.TopicCreation;
import org.dpstream.service.kafka.TopicProvisioner;
import org.dpstream.service.kafka.TopicSpec;
import org.dpstream.service.metrics.MetricsServer;
import org.dpstream.service.streams.DpstreamService;
import org.dpstream.service.streams.RoutingTopicCheck;
import org.dpstream.service.streams.StreamsSettings;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dpstream run --config FILE}: the service against an existing Kafka cluster. A bad config, Kafka
 * setting or noise key is one line on stderr and exit code 2, before anything connects; a cluster that
 * cannot be reached or refuses to create a topic is one line and exit code 1.
 */
@Command(
    name = "run",
    description = {
      "Run the service against an existing Kafka cluster; missing topics are created (createTopics in the config).",
      "The noise key is read from DPSTREAM_NOISE_KEY or the file named by DPSTREAM_NOISE_KEY_FILE; retired keys"
          + " (still used by states bound to them until their next epoch) from DPSTREAM_NOISE_KEY_RETIRED or the file"
          + " named by DPSTREAM_NOISE_KEY_RETIRED_FILE.",
      "Exit codes: 0 stopped by SIGTERM/Ctrl-C, 1 Kafka unreachable or a topic not creatable,"
          + " 2 bad config, Kafka setting or noise key."
    })
public final class RunCommand implements Callable<Integer> {

  static final int BAD_CONFIG = 2;
  static final int KAFKA_FAILED = 1;
  private static final Duration ADMIN_CLOSE = Duration.ofSeconds(5);

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
  boolean help;

  @Option(names = "--config", required = true, description = "YAML config file (models, topics, kafka settings)")
  Path config;

  @Option(names = "--instance-id", paramLabel = "ID",
      description = "Static group membership id of this instance (overrides instanceId in the config file):"
          + " a restarted instance takes its tasks back at once. Each instance needs its own.")
  String instanceId;

  /** Where the noise key is looked up; the process environment, replaced by tests. */
  Map<String, String> environment = System.getenv();

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    ServiceConfig serviceConfig;
    NoiseKeyRing keys;
    try {
      serviceConfig = ConfigLoader.load(config);
      if (instanceId != null) {
        serviceConfig = serviceConfig.withInstanceId(instanceId);
      }
      StreamsSettings.validate(serviceConfig);
      if (!serviceConfig.bandits().isEmpty() && serviceConfig.decider().servesApi()) {
        // The decision API's callers: its settings and files are checked now, before anything connects.
        serviceConfig = serviceConfig.withDecider(
            ApiSecurity.withTokensFileFromEnvironment(serviceConfig.decider(), environment));
        ApiSecurity.of(serviceConfig.decider());
      }
      keys = NoiseKeyRing.fromEnvironment(environment);
    } catch (IllegalArgumentException | IllegalStateException e) {
      return fail(err, BAD_CONFIG, e.getMessage());
    } catch (ConfigException e) {
      return fail(err, BAD_CONFIG, "kafka settings: " + e.getMessage());
    }
    try {
      createMissingTopics(serviceConfig, err);
    } catch (IllegalArgumentException e) {
      return fail(err, BAD_CONFIG, e.getMessage());
    } catch (IllegalStateException | KafkaException e) {
      return fail(err, e instanceof ConfigException ? BAD_CONFIG : KAFKA_FAILED, e.getMessage());
    }
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    DpstreamService service;
    try {
      service = DpstreamService.start(serviceConfig, keys, registry);
    } catch (ConfigException e) {
      return fail(err, BAD_CONFIG, "kafka settings: " + e.getMessage());
    } catch (IllegalStateException | KafkaException e) {
      return fail(err, KAFKA_FAILED, e.getMessage()); // e.g. dp.releases could not be read to its end
    }
    MetricsServer metrics = null;
    if (serviceConfig.metricsPort() > 0) {
      try {
        metrics = MetricsServer.start(registry, serviceConfig.metricsAddress(), serviceConfig.metricsPort())
            .serveHealth(service.health());
      } catch (IOException e) {
        service.close();
        return fail(err, BAD_CONFIG, (serviceConfig.metricsAddress() == null ? "" : "metricsAddress "
            + serviceConfig.metricsAddress() + ", ") + "metricsPort " + serviceConfig.metricsPort() + ": "
            + e.getMessage());
      }
    }
    err.printf("dpstream running: %d model(s), %d bandit(s), application %s%s%s%n",
        serviceConfig.models().size(), serviceConfig.bandits().size(), serviceConfig.applicationId(),
        serviceConfig.instanceId() == null ? "" : ", instance " + serviceConfig.instanceId(),
        metrics == null ? "" : ", metrics, health and readiness at http://localhost:" + metrics.port()
            + "/metrics, /health, /ready");
    String apiScheme = serviceConfig.decider().tls().enabled() ? "https" : "http";
    service.deciders().flatMap(d -> d.httpPort().isPresent()
        ? java.util.Optional.of(d.httpPort().getAsInt()) : java.util.Optional.empty())
        .ifPresent(port -> err.printf("decision API at %s://localhost:%d/v1/bandits/{id}/decide and /reward%n",
            apiScheme, port));
    err.flush();
    awaitShutdown(service, metrics);
    return 0;
  }

  private static int fail(PrintWriter err, int exitCode, String message) {
    err.println("run: " + message);
    err.flush();
    return exitCode;
  }

  private static void createMissingTopics(ServiceConfig config, PrintWriter err) throws InterruptedException {
    TopicCreation creation = config.createTopics();
    List<TopicSpec> specs = creation.specs(config.topics(), !config.bandits().isEmpty());
    Admin admin = Admin.create(TopicProvisioner.adminSettings(config.kafka()));
    try {
      for (TopicSpec created : TopicProvisioner.ensure(admin, specs, creation.replicationFactor(), creation.enabled())) {
        err.printf("created topic %s: %d partitions, replication factor %s%s%n", created.name(), created.partitions(),
            creation.replicationFactor() < 0 ? "of the broker" : creation.replicationFactor(),
            created.configs().isEmpty() ? "" : ", " + created.configs());
      }
      RoutingTopicCheck.verify(admin, config);
    } finally {
      admin.close(ADMIN_CLOSE); // not the default unbounded wait for calls still retrying an unreachable broker
    }
  }

  /**
   * The JVM waits for shutdown hooks, so closing here (not in the main thread) is what makes SIGTERM and
   * Ctrl-C a clean stop: the open transaction is committed or aborted, the state checkpointed and the
   * consumer group left, instead of every stop looking like a crash.
   */
  private static void awaitShutdown(DpstreamService service, MetricsServer metrics) throws InterruptedException {
    CountDownLatch closed = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.err.println("dpstream stopping");
      service.close();
      System.err.println("dpstream stopped: " + service.state());
      if (metrics != null) {
        metrics.close();
      }
      closed.countDown();
    }, "dpstream-shutdown"));
    closed.await();
  }
}
