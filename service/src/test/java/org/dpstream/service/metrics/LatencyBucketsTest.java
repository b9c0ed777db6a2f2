package org.dpstream.service.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dpstream.bandit.Decision;
import org.dpstream.core.online.StepOutcome;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.junit.jupiter.api.Test;

/**
 * The latency histograms have buckets where their values fall: a private step takes about a microsecond,
 * a decision from a fraction of a millisecond to seconds. With Micrometer's default timer range (1 ms to
 * 30 s) every step lands in the lowest bucket and p50/p99 are bucket interpolation.
 */
class LatencyBucketsTest {

  private static final Pattern BUCKET = Pattern.compile("^(\\w+)_bucket\\{[^}]*le=\"([^\"]+)\"[^}]*\\} (\\S+)$");

  /** Cumulative counts by upper bound (finite ones) of one histogram in a scrape. */
  private static TreeMap<Double, Double> buckets(String scrape, String name) {
    TreeMap<Double, Double> counts = new TreeMap<>();
    for (String line : scrape.split("\n")) {
      Matcher m = BUCKET.matcher(line);
      if (m.matches() && m.group(1).equals(name) && !m.group(2).equals("+Inf")) {
        counts.put(Double.parseDouble(m.group(2)), Double.parseDouble(m.group(3)));
      }
    }
    return counts;
  }

  @Test
  void stepLatencyBucketsResolveMicroseconds() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new MicrometerModelMetrics(registry).stepped("m", new StepOutcome(1, 0, false, false), 1_000,
        PrivacyLedger.open(new PrivacyBudget(1, 1e-5), "test", 10));
    TreeMap<Double, Double> buckets = buckets(registry.scrape(), "dpstream_step_latency_seconds");
    assertTrue(buckets.firstKey() <= 2e-7 && buckets.firstKey() >= 1e-7, "lowest bucket " + buckets.firstKey());
    assertTrue(buckets.lastKey() >= 1e-2 && buckets.lastKey() < 2e-2, "highest finite bucket " + buckets.lastKey());
    // The 1 us step is counted by a bucket no wider than 2 us, and not by one below 0.5 us.
    Map.Entry<Double, Double> firstCounting = buckets.entrySet().stream().filter(e -> e.getValue() >= 1)
        .findFirst().orElseThrow();
    assertTrue(firstCounting.getKey() >= 1e-6 && firstCounting.getKey() <= 2e-6, "counted at le=" + firstCounting);
    assertEquals(0.0, buckets.floorEntry(5e-7).getValue());
  }

  @Test
  void decisionLatencyBucketsSpanTenthsOfMillisecondsToSeconds() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new MicrometerBanditMetrics(registry).decided("b", new Decision(0, Decision.Phase.GREEDY, 3), 300_000);
    TreeMap<Double, Double> buckets = buckets(registry.scrape(), "dpstream_bandit_decision_latency_seconds");
    assertTrue(buckets.firstKey() >= 1e-4 && buckets.firstKey() <= 1.2e-4, "lowest bucket " + buckets.firstKey());
    assertTrue(buckets.lastKey() >= 10 && buckets.lastKey() < 20, "highest finite bucket " + buckets.lastKey());
    assertEquals(0.0, buckets.floorEntry(2.5e-4).getValue(), "a 0.3 ms decision is above 0.25 ms");
    assertTrue(buckets.ceilingEntry(3e-4).getValue() >= 1, "and counted by the next bucket up");
  }
}
