package org.dpstream.service.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Set;
import org.dpstream.core.online.StepOutcome;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.junit.jupiter.api.Test;

/** Per-instance aggregates over any number of models; per-model gauges only for the models that have series. */
class MicrometerModelMetricsTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final MicrometerModelMetrics metrics = new MicrometerModelMetrics(registry, Set.of("watched")::contains);

  private static PrivacyLedger spent(double epsilon) {
    PrivacyLedger ledger = PrivacyLedger.open(new PrivacyBudget(1, 1e-5), "test", 100);
    return epsilon == 0 ? ledger : ledger.reserve(new PrivacyBudget(epsilon, 1e-6));
  }

  private double gauge(String name, String tag, String value) {
    return registry.get(name).tag(tag, value).gauge().value();
  }

  @Test
  void onlyModelsWithSeriesGetPerModelGaugesAndEveryModelCountsInTheAggregates() {
    metrics.stepped("watched", new StepOutcome(3, 0, false, false), 1_000, spent(0.2));
    metrics.stepped("other", new StepOutcome(7, 1, true, false, false, 0.4), 1_000, spent(0.95));
    assertEquals(3.0, gauge("dpstream.model.step", "model", "watched"));
    assertNull(registry.find("dpstream.model.step").tag("model", "other").gauge(), "no series of its own");
    assertEquals(2.0, registry.get("dpstream.samples.processed").counter().count());
    assertEquals(2.0, gauge("dpstream.models", "status", "learning"));
    assertEquals(1.0, gauge("dpstream.models.by.budget.spent", "at_most", "0.25"));
    assertEquals(1.0, gauge("dpstream.models.by.budget.spent", "at_most", "0.9"));
    assertEquals(2.0, gauge("dpstream.models.by.budget.spent", "at_most", "1.0"));
    assertEquals(0.0, gauge("dpstream.models.by.clip.rate", "at_most", "0.25"), "other's released rate is 0.4");
    assertEquals(1.0, gauge("dpstream.models.by.clip.rate", "at_most", "0.5"));
    assertEquals(1.0, registry.get("dpstream.samples.clipped").counter().count());
  }

  @Test
  void aModelWhoseLedgerRefusedAStepIsBudgetExhausted() {
    metrics.stepped("watched", new StepOutcome(3, 0, false, false), 1_000, spent(1));
    metrics.rejected("watched", MicrometerModelMetrics.BUDGET_EXHAUSTED);
    metrics.rejected(null, "UNKNOWN_MODEL");
    assertEquals(1.0, gauge("dpstream.models", "status", "budget_exhausted"));
    assertEquals(0.0, gauge("dpstream.models", "status", "learning"));
    assertEquals(2.0, registry.get("dpstream.samples.rejected").counter().count());
    assertEquals(1.0, registry.get("dpstream.samples.rejected.by.reason").tag("reason", "UNKNOWN_MODEL")
        .counter().count());
  }

  /** A model moved to another instance is reported there only: its task's close forgets it here. */
  @Test
  void closingATaskForgetsItsModelsAndTheirSeries() {
    metrics.stepped("watched", new StepOutcome(40, 0, false, false, false, 0.5), 1_000, spent(0.5));
    metrics.stepped("other", new StepOutcome(1, 0, false, false), 1_000, spent(0.1));
    assertTrue(registry.find("dpstream.model.clip.rate").tag("model", "watched").gauge() != null);
    metrics.closed(List.of("watched"));
    assertNull(registry.find("dpstream.model.step").tag("model", "watched").gauge());
    assertNull(registry.find("dpstream.model.clip.rate").tag("model", "watched").gauge());
    assertEquals(1.0, gauge("dpstream.models", "status", "learning"));
    metrics.stepped("watched", new StepOutcome(41, 0, false, false), 1_000, spent(0.5));
    assertEquals(41.0, gauge("dpstream.model.step", "model", "watched"), "back on this instance, back on /metrics");
  }
}
