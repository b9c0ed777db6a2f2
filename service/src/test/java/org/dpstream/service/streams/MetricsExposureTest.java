package org.dpstream.service.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.schemas.DecisionPhase;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.DeciderConfig;
import org.dpstream.service.config.MetricsConfig;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.decide.DeciderMetrics;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.metrics.MetricCatalog;
import org.dpstream.service.metrics.Promtool;
import org.dpstream.service.metrics.PublicSeriesFilter;
import org.dpstream.service.metrics.ScrapedFamilies;
import org.dpstream.service.testing.TestNoiseKeys;
import org.dpstream.service.topology.TestDrivers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * /metrics of the service's topology (two models, one with adaptive clipping, and a bandit) after samples, bad
 * inputs, decisions and rewards: by default every family is public ({@link MetricCatalog#PUBLIC}) and none of the
 * raw ones is there; with {@code metrics.raw: true} the raw ones appear, and each is catalogued.
 */
class MetricsExposureTest {

  private static final ModelConfig ADAPTIVE = new ModelConfig("linear", 3, "squared", "1.5", 2, 1, 1e-5, 64, 1, 2,
      null, null, "zcdp", 1);
  private static final ModelConfig POFW = new ModelConfig("pofw", 3, "squared", "1", 2, 1, 1e-5, 64, 1, 2,
      null, null, "zcdp", 1);
  private static final BanditConfig BANDIT = new BanditConfig("offers", 3, 2, "identity", 1.0, "0.1", 4L, 1, 1e-5,
      200, 1.0, 1.0, "10s", "drop", null, 1);
  private static final ServiceConfig CONFIG =
      new ServiceConfig("exposure-test", null, List.of(ADAPTIVE, POFW), Map.of(), 0, List.of(BANDIT))
          .withRoutingPartitions(1)
          .withDecider(DeciderConfig.decidingInTopology());

  @TempDir Path stateDir;

  @Test
  void byDefaultEverySeriesIsPublic() throws Exception {
    String scrape = scrapeAfterTraffic(CONFIG, "public");
    assertEquals(Set.of(), ScrapedFamilies.notPublic(scrape), "raw families on the default /metrics");
    Set<String> families = ScrapedFamilies.of(scrape);
    for (String expected : List.of("dpstream_samples_processed_total", "dpstream_samples_rejected_total",
        "dpstream_models", "dpstream_models_by_budget_spent", "dpstream_models_by_clip_rate", "dpstream_model_step",
        "dpstream_epsilon_spent", "dpstream_model_clip_rate", "dpstream_bandit_rounds",
        "dpstream_bandit_decisions_total", "dpstream_bandit_rejected_total", "dpstream_decider_decisions_total")) {
      assertTrue(families.contains(expected), expected + " in " + families);
    }
    assertTrue(scrape.contains("dpstream_models{status=\"learning\"} 2.0"), scrape);
    assertTrue(scrape.contains("dpstream_samples_rejected_total 1.0"), "the bad sample, counted without its reason");
    lint(scrape);
  }

  @Test
  void withRawMetricsTheRawSeriesAppearAndEachIsCatalogued() throws Exception {
    String scrape = scrapeAfterTraffic(CONFIG.withMetrics(MetricsConfig.raw(true)), "raw");
    Set<String> families = ScrapedFamilies.of(scrape);
    Set<String> raw = new TreeSet<>(families);
    raw.removeIf(MetricCatalog::isPublic);
    assertEquals(new TreeSet<>(List.of("dpstream_bandit_decision_latency_seconds",
        "dpstream_bandit_decisions_by_arm_total", "dpstream_bandit_rejected_by_reason_total",
        "dpstream_bandit_reward_cumulative", "dpstream_decider_decision_latency_seconds",
        "dpstream_samples_clipped_total", "dpstream_samples_rejected_by_reason_total",
        "dpstream_step_latency_seconds")), raw);
    assertTrue(MetricCatalog.names(MetricCatalog.RAW).containsAll(raw));
    assertTrue(scrape.contains("dpstream_samples_rejected_by_reason_total{reason=\"WRONG_DIMENSION\"} 1.0"), scrape);
    lint(scrape);
  }

  private String scrapeAfterTraffic(ServiceConfig config, String name) {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    PublicSeriesFilter.restrict(registry, config.metrics()); // as DpstreamService.start does
    Topics topics = new Topics(config.topics());
    try (TopologyTestDriver driver = TestDrivers.exactlyOnce(
        DpstreamService.topology(config, new KeyedNoiseSource(key()), registry), config.applicationId(),
        stateDir.resolve(name))) {
      TestInputTopic<byte[], byte[]> samples = TestDrivers.rawInput(driver, topics.samples().name());
      for (String model : List.of("linear", "pofw")) {
        for (int i = 0; i < 12; i++) { // past adaptive clipping's first block: a released clipping rate
          samples.pipeInput(new TestRecord<>(utf8(model),
              utf8("{\"features\":[" + 0.1 * i + ",0.2,-0.3],\"label\":" + 0.05 * i + "}"), null, 1000L + i));
        }
      }
      samples.pipeInput(new TestRecord<>(utf8("linear"), utf8("{\"features\":[0.1,0.2],\"label\":0}"), null, 2000L));
      TestInputTopic<byte[], byte[]> contexts = TestDrivers.rawInput(driver, topics.contexts().name());
      TestInputTopic<byte[], byte[]> rewards = TestDrivers.rawInput(driver, topics.rewards().name());
      for (int i = 0; i < 3; i++) {
        contexts.pipeInput(new TestRecord<>(utf8("offers"),
            utf8("{\"requestId\":\"r" + i + "\",\"context\":[0.5," + 0.1 * i + ",-0.2]}"), null, 3000L + i));
        rewards.pipeInput(new TestRecord<>(utf8("offers"),
            utf8("{\"requestId\":\"r" + i + "\",\"reward\":" + 0.3 * i + "}"), null, 3000L + i));
      }
      rewards.pipeInput(new TestRecord<>(utf8("offers"), utf8("{\"requestId\":\"nobody\",\"reward\":1}"), null, 3100L));
      // The deciders' meters, as BanditDeciders records them (they run outside the topology).
      new DeciderMetrics(registry).decided("offers", DeciderMetrics.Path.HTTP, DecisionPhase.WARM_UP, 400_000);
      return registry.scrape();
    }
  }

  private static void lint(String scrape) throws Exception {
    Path promtool = Promtool.find().orElse(null);
    if (promtool != null) {
      Promtool.Result lint = Promtool.checkMetrics(promtool, scrape);
      assertTrue(lint.clean(), "promtool check metrics:\n" + lint.output());
    }
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static NoiseKey key() {
    return TestNoiseKeys.arithmetic(5, 3);
  }
}
