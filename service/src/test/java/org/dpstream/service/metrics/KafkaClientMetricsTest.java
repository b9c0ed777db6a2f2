package org.dpstream.service.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class KafkaClientMetricsTest {

  private final PrometheusMeterRegistry target = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final AtomicReference<MeterRegistry> source = new AtomicReference<>();
  /** Held here: function counters reference their object weakly. */
  private final double[] commitNanos = {2.5e9};
  private final double[] consumed = {7};

  /** Registers meters named and typed as Micrometer's Kafka binder does, through the mirror. */
  private KafkaClientMetrics mirrorOfKafkaLikeMeters() {
    return KafkaClientMetrics.mirroring(target, registry -> {
      source.set(registry);
      FunctionCounter.builder("kafka.producer.txn.commit.time.ns.total", commitNanos, v -> v[0])
          .tag("client.id", "p1").description("Total time producer has spent in commitTransaction in nanoseconds.")
          .register(registry);
      Gauge.builder("kafka.consumer.io.wait.time.ns.avg", () -> 4e6).tag("client.id", "c1").register(registry);
      Gauge.builder("kafka.app.info.start.time.ms", () -> 1_500).tag("client.id", "c1").register(registry);
      Gauge.builder("kafka.consumer.connection.count", () -> 3).tag("client.id", "c1").register(registry);
      Gauge.builder("kafka.stream.thread.process.rate", () -> 42).tag("thread.id", "t1").register(registry);
      FunctionCounter.builder("kafka.consumer.fetch.manager.records.consumed.total", consumed, v -> v[0])
          .tag("client.id", "c1").register(registry);
      return () -> { };
    });
  }

  @Test
  void timesAreInSecondsAndGaugesDoNotEndInCount() {
    try (KafkaClientMetrics ignored = mirrorOfKafkaLikeMeters()) {
      String scrape = target.scrape();
      assertTrue(scrape.contains("kafka_producer_txn_commit_time_seconds_total{client_id=\"p1\"} 2.5"), scrape);
      assertTrue(scrape.contains("kafka_consumer_io_wait_time_seconds_avg{client_id=\"c1\"} 0.004"), scrape);
      assertTrue(scrape.contains("kafka_app_info_start_time_seconds{client_id=\"c1\"} 1.5"), scrape);
      assertTrue(scrape.contains("kafka_consumer_connections{client_id=\"c1\"} 3.0"), scrape);
      assertFalse(scrape.contains("_ns_") || scrape.contains("_ms") || scrape.contains("connection_count"), scrape);
    }
  }

  @Test
  void namesWithoutUnitsAreKeptSoDashboardsStillWork() {
    try (KafkaClientMetrics ignored = mirrorOfKafkaLikeMeters()) {
      String scrape = target.scrape();
      assertTrue(scrape.contains("kafka_stream_thread_process_rate{thread_id=\"t1\"} 42.0"), scrape);
      assertTrue(scrape.contains("kafka_consumer_fetch_manager_records_consumed_total{client_id=\"c1\"} 7.0"), scrape);
      assertTrue(scrape.contains("# HELP kafka_consumer_connections Kafka client metric kafka.consumer.connection.count."),
          "a help text where Kafka gives none:\n" + scrape);
    }
  }

  @Test
  void aMeterRemovedByTheBinderDisappearsFromTheScrape() {
    try (KafkaClientMetrics ignored = mirrorOfKafkaLikeMeters()) {
      Meter thread = source.get().find("kafka.stream.thread.process.rate").meter();
      source.get().remove(thread);
      assertFalse(target.scrape().contains("kafka_stream_thread_process_rate"));
    }
    assertFalse(target.scrape().contains("kafka_"), "closing removes every mirrored meter");
  }

  @Test
  void theMirroredMetersPassPromtool() throws Exception {
    Path promtool = Promtool.find().orElse(null);
    Assumptions.assumeTrue(promtool != null, Promtool.MISSING);
    try (KafkaClientMetrics ignored = mirrorOfKafkaLikeMeters()) {
      Promtool.Result lint = Promtool.checkMetrics(promtool, target.scrape());
      assertTrue(lint.clean(), lint.output());
      assertEquals(0, lint.exitCode());
    }
  }
}
