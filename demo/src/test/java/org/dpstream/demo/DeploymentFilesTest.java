package org.dpstream.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.dpstream.service.config.ConfigLoader;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.metrics.MetricCatalog;
import org.dpstream.service.testing.RepositoryFiles;
import org.junit.jupiter.api.Test;

/**
 * Keeps docker-compose.yml and deploy/ consistent with the code without needing Docker (CI has only
 * Java and Maven): every file compose mounts exists, the service's config loads, Prometheus scrapes the
 * port the service serves, every dpstream metric the Grafana dashboard and the alert rules read is one the
 * service exports, raw ones only where the panel or rule says it needs raw metrics, and Grafana asks for a
 * password. {@code docker compose config} remains the full check where Docker is installed.
 */
class DeploymentFilesTest {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern METRIC = Pattern.compile("\\b((?:dpstream|kafka_stream)_[a-z_]+)");

  private final Path root = RepositoryFiles.root();

  @Test
  void composeHasTheFourServicesAndEveryMountedFileExists() throws IOException {
    JsonNode services = YAML.readTree(root.resolve("docker-compose.yml").toFile()).get("services");
    for (String service : List.of("kafka", "dpstream", "prometheus", "grafana")) {
      assertTrue(services.has(service), "service " + service);
    }
    for (JsonNode service : services) {
      for (JsonNode volume : service.path("volumes")) {
        String source = volume.asText().split(":")[0];
        if (source.startsWith("./")) {
          assertTrue(Files.exists(root.resolve(source)), "mounted " + source);
        }
      }
    }
    assertEquals("Dockerfile", services.get("dpstream").get("build").get("dockerfile").asText());
    assertTrue(Files.isRegularFile(root.resolve("Dockerfile")));
  }

  @Test
  void theComposeConfigLoadsAndPrometheusScrapesItsMetricsPort() throws IOException {
    ServiceConfig config = ConfigLoader.load(root.resolve("deploy/dpstream.yaml"));
    assertEquals("kafka:9092", config.kafka().get("bootstrap.servers"));
    Set<String> ids = config.models().stream().map(m -> m.id()).collect(Collectors.toSet());
    assertEquals(DemoModel.defaults().stream().map(DemoModel::id).collect(Collectors.toSet()), ids,
        "compose serves the demo's models");

    JsonNode prometheus = YAML.readTree(root.resolve("deploy/prometheus.yml").toFile());
    String target = prometheus.get("scrape_configs").get(0).get("static_configs").get(0).get("targets").get(0).asText();
    assertEquals("dpstream:" + config.metricsPort(), target);
  }

  /** Each panel says what it plots: a description copied from another panel (as seven once were) says nothing. */
  @Test
  void everyPanelOfTheDashboardHasADescriptionOfItsOwn() throws IOException {
    JsonNode dashboard = JSON.readTree(root.resolve("deploy/grafana/dashboards/dpstream.json").toFile());
    Set<String> descriptions = new HashSet<>();
    for (JsonNode panel : dashboard.get("panels")) {
      String description = panel.path("description").asText("");
      assertFalse(description.isBlank(), panel.get("title") + " has no description");
      assertTrue(descriptions.add(description), panel.get("title") + " repeats another panel's description");
    }
  }

  /**
   * Every dpstream metric a panel queries is one the service exports (MetricCatalog, whose families
   * MetricsExposureTest scrapes), and a panel that reads a raw family says it needs raw metrics, while one that
   * reads only public families does not: on the default /metrics a raw panel stays empty.
   */
  @Test
  void everyMetricOnTheDashboardIsCataloguedAndRawPanelsSaySo() throws IOException {
    JsonNode dashboard = JSON.readTree(root.resolve("deploy/grafana/dashboards/dpstream.json").toFile());
    Set<String> queried = new TreeSet<>();
    for (JsonNode panel : dashboard.get("panels")) {
      Set<String> read = new TreeSet<>();
      for (JsonNode target : panel.get("targets")) {
        assertEquals("prometheus", target.get("datasource").get("uid").asText(), "provisioned datasource uid");
        read.addAll(families(target.get("expr").asText()));
      }
      queried.addAll(read);
      boolean readsRaw = read.stream().anyMatch(family -> !MetricCatalog.isPublic(family));
      assertEquals(readsRaw, panel.get("description").asText().contains(NEEDS_RAW),
          panel.get("title") + " reads " + read + ": a panel says it needs raw metrics exactly when it reads raw ones");
    }
    assertCatalogued(queried);
    assertTrue(queried.contains("kafka_stream_thread_process_rate"), "Kafka Streams client metrics on the dashboard");
  }

  /**
   * Every dpstream metric an alert rule reads is one the service exports, a rule reading a raw family is annotated
   * as needing raw metrics (and only such a rule), and Prometheus loads the rules: a renamed metric would otherwise
   * leave an alert silently never firing.
   */
  @Test
  void everyMetricOfTheAlertRulesIsCataloguedAndPrometheusLoadsTheRules() throws IOException {
    JsonNode groups = YAML.readTree(root.resolve("deploy/prometheus/alerts.yml").toFile()).get("groups");
    Set<String> read = new TreeSet<>();
    for (JsonNode group : groups) {
      for (JsonNode rule : group.get("rules")) {
        Set<String> ruleReads = families(rule.get("expr").asText());
        read.addAll(ruleReads);
        boolean readsRaw = ruleReads.stream().anyMatch(family -> !MetricCatalog.isPublic(family));
        assertEquals(readsRaw, "metrics.raw: true".equals(rule.path("annotations").path("requires").asText()),
            rule.get("alert") + " reads " + ruleReads);
      }
    }
    assertCatalogued(read);
    assertTrue(read.contains("dpstream_models_by_budget_spent") && read.contains("dpstream_bandit_decision_latency_seconds"),
        read.toString());
    JsonNode prometheus = YAML.readTree(root.resolve("deploy/prometheus.yml").toFile());
    assertEquals("/etc/prometheus/alerts.yml", prometheus.get("rule_files").get(0).asText());
    assertTrue(Files.readString(root.resolve("docker-compose.yml"))
        .contains("./deploy/prometheus/alerts.yml:/etc/prometheus/alerts.yml:ro"), "compose mounts the rules");
  }

  /**
   * The decision API's port is published exactly when the service's config has bandits (then something listens on
   * it); without bandits a published port would promise an API, and a dashboard row, that never come.
   */
  @Test
  void composePublishesTheDecisionApiPortOnlyWhenItsConfigHasBandits() throws IOException {
    ServiceConfig config = ConfigLoader.load(root.resolve("deploy/dpstream.yaml"));
    String apiPort = Integer.toString(config.decider().httpPort());
    boolean published = false;
    for (JsonNode port : YAML.readTree(root.resolve("docker-compose.yml").toFile()).get("services").get("dpstream")
        .path("ports")) {
      published |= port.asText().endsWith(":" + apiPort);
    }
    assertEquals(!config.bandits().isEmpty(), published, "port " + apiPort + " published; bandits " + config.bandits());
  }

  /** Compose runs the broker of the Kafka version the service's clients are built with, the one the ITs run. */
  @Test
  void composeRunsTheBrokerOfTheClientsKafkaVersion() throws IOException {
    Matcher version = Pattern.compile("<kafka.version>([^<]+)</kafka.version>")
        .matcher(Files.readString(root.resolve("pom.xml")));
    assertTrue(version.find(), "pom.xml names kafka.version");
    Set<String> images = new TreeSet<>();
    for (String file : List.of("docker-compose.yml", "docker-compose.secured.yml")) {
      for (JsonNode service : YAML.readTree(root.resolve(file).toFile()).get("services")) {
        String image = service.path("image").asText("");
        if (image.startsWith("apache/kafka:")) {
          images.add(image);
        }
      }
    }
    assertEquals(Set.of("apache/kafka:" + version.group(1)), images);
    assertTrue(Files.readString(root.resolve("README.md")).contains("Kafka " + version.group(1)),
        "the README states the supported Kafka version");
  }

  /** Grafana shows data derived from the service: no anonymous access, the admin password from a secret file. */
  @Test
  void grafanaHasNoAnonymousAccessAndItsPasswordIsASecret() throws IOException {
    JsonNode grafana = YAML.readTree(root.resolve("docker-compose.yml").toFile()).get("services").get("grafana");
    JsonNode environment = grafana.get("environment");
    assertEquals("false", environment.get("GF_AUTH_ANONYMOUS_ENABLED").asText());
    assertFalse(environment.has("GF_SECURITY_ADMIN_PASSWORD"), "no password in the compose file");
    assertEquals("/run/secrets/grafana_admin_password", environment.get("GF_SECURITY_ADMIN_PASSWORD__FILE").asText());
    assertEquals("grafana_admin_password", grafana.get("secrets").get(0).asText());
    assertTrue(Files.readString(root.resolve(".gitignore")).contains("deploy/grafana-admin-password"));
  }

  private static final String NEEDS_RAW = "Needs `metrics.raw: true`";

  /** The catalogued families an expression reads (a histogram's _bucket series are its family's). */
  private static Set<String> families(String expression) {
    Set<String> catalogued = new TreeSet<>(MetricCatalog.names(MetricCatalog.PUBLIC));
    catalogued.addAll(MetricCatalog.names(MetricCatalog.RAW));
    Set<String> families = new TreeSet<>();
    Matcher matcher = METRIC.matcher(expression);
    while (matcher.find()) {
      families.add(MetricCatalog.familyOfSample(matcher.group(1), catalogued));
    }
    return families;
  }

  /** Every dpstream family read is catalogued (public or raw); a Kafka one outside the public list is raw. */
  private static void assertCatalogued(Set<String> read) {
    Set<String> missing = read.stream().filter(m -> m.startsWith("dpstream_"))
        .filter(m -> !MetricCatalog.isPublic(m) && !MetricCatalog.names(MetricCatalog.RAW).contains(m))
        .collect(Collectors.toCollection(TreeSet::new));
    assertTrue(missing.isEmpty(), "read but not exported: " + missing);
  }
}
