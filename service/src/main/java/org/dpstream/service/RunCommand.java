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
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.service.acl.AccessCheck;
import org.dpstream.service.acl.AccessFailures;
import org.dpstream.service.acl.InternalTopicWatch;
import org.dpstream.service.acl.RequiredAcls;
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
import org.dpstream.service.streams.TopologyTopics;
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
      "Exit codes: 0 stopped by SIGTERM/Ctrl-C, 1 Kafka unreachable, a topic not creatable, dp.releases not readable"
          + " or access denied (an ACL missing: `dpstream acls` lists them), 2 bad config, Kafka setting or noise key."
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
    AccessFailures access;
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
      access = new AccessFailures(RequiredAcls.forService(serviceConfig), ". `dpstream acls --config " + config
          + " --principal <its principal>` lists every ACL the service needs");
    } catch (IllegalArgumentException | IllegalStateException e) {
      return fail(err, BAD_CONFIG, e.getMessage());
    } catch (ConfigException e) {
      return fail(err, BAD_CONFIG, "kafka settings: " + e.getMessage());
    }
    try {
      createMissingTopics(serviceConfig, err, access);
    } catch (IllegalArgumentException e) {
      return fail(err, BAD_CONFIG, e.getMessage());
    } catch (IllegalStateException | KafkaException e) {
      if (access.report("topic set-up", e)) {
        return fail(err, KAFKA_FAILED, ACCESS_DENIED + access.fatal().orElseThrow());
      }
      return fail(err, e instanceof ConfigException ? BAD_CONFIG : KAFKA_FAILED, e.getMessage());
    }
    if (access.fatal().isPresent()) {
      return fail(err, KAFKA_FAILED, ACCESS_DENIED + access.fatal().get());
    }
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    DpstreamService service;
    try {
      service = DpstreamService.start(serviceConfig, keys, registry, access);
    } catch (ConfigException e) {
      return fail(err, BAD_CONFIG, "kafka settings: " + e.getMessage());
    } catch (RuntimeException e) {
      if (access.fatal().isPresent()) {
        return fail(err, KAFKA_FAILED, ACCESS_DENIED + access.fatal().get());
      }
      if (e instanceof IllegalStateException || e instanceof KafkaException) {
        return fail(err, KAFKA_FAILED, e.getMessage()); // e.g. dp.releases could not be read to its end
      }
      throw e;
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
    return awaitShutdown(service, metrics, serviceConfig, access, err);
  }

  private static final String ACCESS_DENIED = "access denied: ";

  private static int fail(PrintWriter err, int exitCode, String message) {
    err.println("run: " + message);
    err.flush();
    return exitCode;
  }

  /**
   * Creates the missing topics, checks the routing topics, then asks the cluster whether the service's principal
   * may do what it needs ({@link AccessCheck}); a refusal is recorded in {@code access}.
   */
  private static void createMissingTopics(ServiceConfig config, PrintWriter err, AccessFailures access)
      throws InterruptedException {
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
      access.denyMissing(new AccessCheck(access.acls()).missing(admin, TopologyTopics.of(config).internal()));
    } finally {
      admin.close(ADMIN_CLOSE); // not the default unbounded wait for calls still retrying an unreachable broker
    }
  }

  /**
   * Runs until SIGTERM or Ctrl-C (exit code 0) or until the cluster refuses the service something (exit code 1,
   * one line naming the missing ACL). The shutdown hook waits until the service is closed, since the JVM waits
   * for hooks: that is what makes SIGTERM and Ctrl-C a clean stop (the open transaction committed or aborted, the
   * state checkpointed, the consumer group left) instead of every stop looking like a crash. Until Kafka Streams has
   * created all its internal topics, those it has are checked like the others were before the start
   * ({@link InternalTopicWatch}): a refused one would otherwise show only when a client meets it.
   */
  private static int awaitShutdown(DpstreamService service, MetricsServer metrics, ServiceConfig config,
      AccessFailures access, PrintWriter err) throws InterruptedException {
    CountDownLatch stopRequested = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      stopRequested.countDown();
      try {
        closed.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "dpstream-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    InternalTopicWatch internal = new InternalTopicWatch(TopicProvisioner.adminSettings(config.kafka()),
        TopologyTopics.of(config).internal(), access);
    try {
      while (!stopRequested.await(WATCH_INTERVAL.toMillis(), TimeUnit.MILLISECONDS) && access.fatal().isEmpty()) {
        internal.checkIfDue();
      }
    } finally {
      internal.close();
      System.err.println("dpstream stopping");
      service.close();
      System.err.println("dpstream stopped: " + service.state());
      if (metrics != null) {
        metrics.close();
      }
      closed.countDown();
    }
    if (stopRequested.getCount() == 0) {
      return 0;
    }
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // a SIGTERM came meanwhile: the hook finds the service closed
    }
    return fail(err, KAFKA_FAILED, ACCESS_DENIED + access.fatal().orElseThrow());
  }

  private static final Duration WATCH_INTERVAL = Duration.ofMillis(200);
}
