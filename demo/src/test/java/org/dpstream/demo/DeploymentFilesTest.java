package org.dpstream.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
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
import org.dpstream.bandit.Decision;
import org.dpstream.core.online.StepOutcome;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.service.config.ConfigLoader;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.metrics.MicrometerBanditMetrics;
import org.dpstream.service.metrics.MicrometerModelMetrics;
import org.dpstream.service.testing.RepositoryFiles;
import org.junit.jupiter.api.Test;

/**
 * Keeps docker-compose.yml and deploy/ consistent with the code without needing Docker (CI has only
 * Java and Maven): every file compose mounts exists, the service's config loads, Prometheus scrapes the
 * port the service serves, and every dpstream metric the Grafana dashboard queries is one the service
 * exports. {@code docker compose config} remains the full check where Docker is installed.
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

  @Test
  void everyMetricOnTheDashboardIsExportedByTheService() throws IOException {
    JsonNode dashboard = JSON.readTree(root.resolve("deploy/grafana/dashboards/dpstream.json").toFile());
    Set<String> queried = new TreeSet<>();
    for (JsonNode panel : dashboard.get("panels")) {
      for (JsonNode target : panel.get("targets")) {
        assertEquals("prometheus", target.get("datasource").get("uid").asText(), "provisioned datasource uid");
        Matcher matcher = METRIC.matcher(target.get("expr").asText());
        while (matcher.find()) {
          queried.add(matcher.group(1));
        }
      }
    }
    Set<String> exported = exportedModelMetrics();
    Set<String> dpstreamQueried = queried.stream().filter(m -> m.startsWith("dpstream_")).collect(Collectors.toSet());
    assertFalse(dpstreamQueried.isEmpty());
    Set<String> missing = new HashSet<>(dpstreamQueried);
    missing.removeAll(exported);
    assertTrue(missing.isEmpty(), "queried but not exported: " + missing + "; exported: " + exported);
    assertTrue(queried.contains("kafka_stream_thread_process_rate"), "Kafka Streams client metrics on the dashboard");
  }

  /**
   * Every dpstream metric an alert rule reads is one the service exports, and Prometheus loads the rules:
   * a renamed metric would otherwise leave an alert silently never firing.
   */
  @Test
  void everyMetricOfTheAlertRulesIsExportedAndPrometheusLoadsTheRules() throws IOException {
    String rules = Files.readString(root.resolve("deploy/prometheus/alerts.yml"));
    Set<String> read = new TreeSet<>();
    Matcher matcher = METRIC.matcher(rules);
    while (matcher.find()) {
      read.add(matcher.group(1));
    }
    Set<String> exported = exportedModelMetrics();
    Set<String> missing = read.stream().filter(m -> m.startsWith("dpstream_")).collect(Collectors.toCollection(TreeSet::new));
    missing.removeAll(exported);
    assertTrue(missing.isEmpty(), "read by alerts.yml but not exported: " + missing + "; exported: " + exported);
    assertTrue(read.contains("dpstream_epsilon_budget") && read.contains("dpstream_bandit_decision_latency_seconds_bucket"),
        read.toString());
    JsonNode prometheus = YAML.readTree(root.resolve("deploy/prometheus.yml").toFile());
    assertEquals("/etc/prometheus/alerts.yml", prometheus.get("rule_files").get(0).asText());
    assertTrue(Files.readString(root.resolve("docker-compose.yml"))
        .contains("./deploy/prometheus/alerts.yml:/etc/prometheus/alerts.yml:ro"), "compose mounts the rules");
  }

  /** The names the Prometheus registry gives the service's model and bandit metrics, by scraping them. */
  private static Set<String> exportedModelMetrics() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    MicrometerModelMetrics metrics = new MicrometerModelMetrics(registry);
    PrivacyLedger ledger = PrivacyLedger.open(new PrivacyBudget(1, 1e-5), "zcdp", 100);
    metrics.stepped("m", new StepOutcome(1, 0, true, false), 1_000, ledger);
    metrics.rejected("m", "UNDECODABLE");
    metrics.processingError("m");
    MicrometerBanditMetrics bandits = new MicrometerBanditMetrics(registry);
    bandits.decided("b", new Decision(0, Decision.Phase.GREEDY, 1), 1_000_000);
    bandits.rewardHeld("b");
    Set<String> names = new TreeSet<>();
    // Registered by DpstreamService itself from its health check (no broker here to start one).
    names.add("dpstream_ready");
    for (String line : registry.scrape().split("\n")) {
      if (!line.startsWith("#") && !line.isBlank()) {
        names.add(line.split("[{ ]")[0]);
      }
    }
    return names;
  }
}
