package org.dpstream.service.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.dpstream.core.online.StepOutcome;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.service.config.MetricsConfig;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.junit.jupiter.api.Test;

/**
 * /metrics at 10,000 models, each stepped and one in ten with a rejected input, through the service's registry
 * set-up (PublicSeriesFilter, per-model series as ServiceConfig chooses them). One Prometheus target should stay
 * within tens of thousands of series: the model metrics take a fixed number of series by default, per-model ones
 * only for the listed models. The Kafka clients add about a hundred public series whatever the number of models
 * (OperationsIT scrapes them). docs/operations.md quotes the numbers this test prints.
 */
class MetricsAtScaleTest {

  private static final int MODELS = 10_000;
  private static final long MAX_SERIES = 20_000;
  private static final long MAX_BYTES = 2_000_000;

  @Test
  void tenThousandModelsTakeAFixedNumberOfSeriesByDefault() {
    String scrape = scrape(MetricsConfig.DEFAULT);
    report("default", scrape);
    assertTrue(ScrapedFamilies.series(scrape) < 100, "per-instance series only: " + ScrapedFamilies.series(scrape));
  }

  @Test
  void listedModelsAddTheirFewGaugesEach() {
    List<String> listed = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      listed.add("model-" + i);
    }
    String scrape = scrape(new MetricsConfig(false, null, listed));
    report("1,000 listed", scrape);
    long perModel = scrape.lines().filter(line -> line.startsWith("dpstream_model_step{")).count();
    assertEquals(1_000, perModel);
    assertTrue(ScrapedFamilies.series(scrape) < MAX_SERIES && bytes(scrape) < MAX_BYTES);
  }

  @Test
  void rawMetricsStayPerInstanceToo() {
    String scrape = scrape(MetricsConfig.raw(true));
    report("raw", scrape);
    assertTrue(ScrapedFamilies.series(scrape) < MAX_SERIES && bytes(scrape) < MAX_BYTES);
  }

  private static String scrape(MetricsConfig metrics) {
    List<ModelConfig> models = new ArrayList<>();
    for (int i = 0; i < MODELS; i++) {
      models.add(new ModelConfig("model-" + i, 3, "squared", "1.5", 2, 1, 1e-5, 1000, 1, 2, null, null, "zcdp", 1));
    }
    ServiceConfig config = new ServiceConfig("scale", null, models, Map.of(), 0).withMetrics(metrics);
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    PublicSeriesFilter.restrict(registry, config.metrics());
    MicrometerModelMetrics modelMetrics = new MicrometerModelMetrics(registry, config.modelsWithSeries()::contains);
    PrivacyLedger ledger = PrivacyLedger.open(new PrivacyBudget(1, 1e-5), "zcdp", 1000)
        .reserve(new PrivacyBudget(0.5, 1e-6));
    for (int i = 0; i < MODELS; i++) {
      modelMetrics.stepped("model-" + i, new StepOutcome(10, 0, i % 2 == 0, false, false, 0.5), 1_000 + i, ledger);
      if (i % 10 == 0) {
        modelMetrics.rejected("model-" + i, "WRONG_DIMENSION");
      }
    }
    String scrape = registry.scrape();
    assertTrue(ScrapedFamilies.series(scrape) < MAX_SERIES, "series: " + ScrapedFamilies.series(scrape));
    assertTrue(bytes(scrape) < MAX_BYTES, "bytes: " + bytes(scrape));
    return scrape;
  }

  private static int bytes(String scrape) {
    return scrape.getBytes(StandardCharsets.UTF_8).length;
  }

  private static void report(String setting, String scrape) {
    System.out.printf("/metrics of the models at %,d models, %s: %,d series, %,d bytes%n", MODELS, setting,
        ScrapedFamilies.series(scrape), bytes(scrape));
  }
}
