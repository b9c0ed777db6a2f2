package org.dpstream.service.metrics;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

/** The processing-error counter as Prometheus scrapes it, under the name the README documents. */
class ProcessingErrorsTest {

  @Test
  void modelsAndBanditsCountUnderOneNameTaggedByModel() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new MicrometerModelMetrics(registry).processingError("lr-p1.5");
    new MicrometerBanditMetrics(registry).processingError("demo-bandit");
    new MicrometerBanditMetrics(registry).processingError(null);
    ProcessingErrors.count(registry, ProcessingErrors.OUTSIDE_PROCESSORS);
    String scrape = registry.scrape();
    assertTrue(scrape.contains("dpstream_processing_errors_total{model=\"lr-p1.5\"} 1.0"), scrape);
    assertTrue(scrape.contains("dpstream_processing_errors_total{model=\"demo-bandit\"} 1.0"), scrape);
    assertTrue(scrape.contains("dpstream_processing_errors_total{model=\"_unknown\"} 1.0"), scrape);
    assertTrue(scrape.contains("dpstream_processing_errors_total{model=\"_streams\"} 1.0"), scrape);
  }
}
