package org.dpstream.service.decide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.Map;
import org.dpstream.schemas.DecisionPhase;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.decide.follower.ReleaseFollower;
import org.dpstream.service.decide.follower.ReleasedBandits;
import org.junit.jupiter.api.Test;

/** The deciders' metrics as Prometheus scrapes them, and their readiness. */
class DeciderMetricsTest {

  private final BanditRegistry bandits = new BanditRegistry(Map.of(
      "offers", new BanditConfig("offers", 2, 3, "logistic", 1.0, "0.1", 5L, 1, 1e-5, 1_000, 1.0, 1.0, "10s", "drop",
          null, 1).toEntry()));

  @Test
  void decisionsAreCountedByPathAndPhaseWithALatencyHistogramFrom100MicrosecondsTo10Seconds() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    DeciderMetrics metrics = new DeciderMetrics(registry);
    metrics.decided("offers", DeciderMetrics.Path.HTTP, DecisionPhase.WARM_UP, 250_000);
    metrics.decided("offers", DeciderMetrics.Path.HTTP, DecisionPhase.WARM_UP, 3_000_000);
    metrics.decided("offers", DeciderMetrics.Path.KAFKA, DecisionPhase.GREEDY, 20_000_000);
    metrics.logWriteFailed("offers");
    String scrape = registry.scrape();
    assertTrue(scrape.contains("dpstream_decider_decisions_total{bandit=\"offers\",path=\"http\",phase=\"WARM_UP\"} 2.0"),
        scrape);
    assertTrue(scrape.contains("dpstream_decider_decisions_total{bandit=\"offers\",path=\"kafka\",phase=\"GREEDY\"} 1.0"),
        scrape);
    assertTrue(scrape.contains("dpstream_decider_log_write_failures_total{bandit=\"offers\"} 1.0"), scrape);
    assertTrue(scrape.contains("dpstream_decider_decision_latency_seconds_count{bandit=\"offers\",path=\"http\"} 2"),
        scrape);
    List<Double> buckets = scrape.lines()
        .filter(l -> l.startsWith("dpstream_decider_decision_latency_seconds_bucket{bandit=\"offers\",path=\"http\""))
        .map(l -> l.replaceAll(".*le=\"([^\"]+)\".*", "$1")).filter(le -> !le.equals("+Inf"))
        .map(Double::parseDouble).toList();
    assertEquals(1.0E-4, buckets.get(0), 1e-12, "first bucket: 100 us");
    assertEquals(10.0, buckets.get(buckets.size() - 1), 1e-9, "last bucket: 10 s");
    assertTrue(scrape.contains("dpstream_decider_decision_latency_seconds_sum{bandit=\"offers\",path=\"http\"} 0.00325"),
        scrape);
  }

  @Test
  void theMetersOfThePathsServedExistBeforeTheFirstDecision() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    DeciderMetrics metrics = new DeciderMetrics(registry);
    metrics.serve(bandits, List.of(DeciderMetrics.Path.KAFKA));
    String scrape = registry.scrape();
    for (DecisionPhase phase : DecisionPhase.values()) {
      assertTrue(scrape.contains("dpstream_decider_decisions_total{bandit=\"offers\",path=\"kafka\",phase=\""
          + phase.name() + "\"} 0.0"), scrape);
    }
    assertTrue(scrape.contains("dpstream_decider_decision_latency_seconds_count{bandit=\"offers\",path=\"kafka\"} 0"),
        scrape);
    assertFalse(scrape.contains("path=\"http\""), "only the paths served: " + scrape);
    metrics.decided("offers", DeciderMetrics.Path.KAFKA, DecisionPhase.GREEDY, 1_000_000);
    assertTrue(registry.scrape().contains(
        "dpstream_decider_decisions_total{bandit=\"offers\",path=\"kafka\",phase=\"GREEDY\"} 1.0"), "the same series");
  }

  @Test
  void theReleasedStepFollowedIsAGaugePerBandit() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    ReleasedBandits released = new ReleasedBandits();
    new DeciderMetrics(registry).follow(bandits, released);
    assertTrue(registry.scrape().contains("dpstream_decider_released_step{bandit=\"offers\"} NaN"), registry.scrape());
    new ReleaseFollower(null, "dp.releases", bandits, released); // publishes the initial step 0
    assertTrue(registry.scrape().contains("dpstream_decider_released_step{bandit=\"offers\"} 0.0"), registry.scrape());
  }

  @Test
  void decidersAreReadyOnlyCaughtUpWarmedUpAndRunning() {
    assertEquals(List.of(), BanditDeciders.readinessProblems(true, true, true, true));
    assertEquals(List.of("deciders: the releases committed before the start are not all read yet"),
        BanditDeciders.readinessProblems(false, true, true, true));
    assertEquals(List.of("deciders: the release follower stopped (decisions come from the last release read)",
        "deciders: the context decider (Kafka path) stopped"),
        BanditDeciders.readinessProblems(true, false, false, true));
    assertEquals(List.of("deciders: warming up (synthetic decisions and API requests, never written)"),
        BanditDeciders.readinessProblems(true, true, true, false));
  }

  @Test
  void aNoOpWithoutARegistry() {
    DeciderMetrics.NONE.decided("offers", DeciderMetrics.Path.HTTP, DecisionPhase.GREEDY, 1);
    DeciderMetrics.NONE.logWriteFailed("offers");
    DeciderMetrics.NONE.follow(bandits, new ReleasedBandits());
    DeciderMetrics.NONE.serve(bandits, List.of(DeciderMetrics.Path.HTTP));
  }
}
