package org.dpstream.service.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.dpstream.service.config.MetricsConfig;

/**
 * For any meter, whoever registers it: on a restricted registry it is on /metrics exactly when its family is
 * catalogued as public; with metrics.raw it is there either way.
 */
class PublicSeriesFilterPropertiesTest {

  /** A meter to register: a dotted name and a type. */
  record Candidate(String name, Meter.Type type) {}

  @Provide
  Arbitrary<Candidate> meters() {
    // Public families in Micrometer's dotted form (counters without _total), raw ones, and any other name.
    Arbitrary<String> catalogued = Arbitraries.of(MetricCatalog.PUBLIC.stream().map(MetricCatalog.Family::name)
        .toList()).map(PublicSeriesFilterPropertiesTest::dotted);
    Arbitrary<String> raw = Arbitraries.of(MetricCatalog.RAW.stream().map(MetricCatalog.Family::name).toList())
        .map(PublicSeriesFilterPropertiesTest::dotted);
    Arbitrary<String> any = Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(8)
        .list().ofMinSize(1).ofMaxSize(4).map(parts -> String.join(".", parts));
    return Combinators.combine(Arbitraries.oneOf(catalogued, raw, any),
            Arbitraries.of(Meter.Type.COUNTER, Meter.Type.GAUGE, Meter.Type.TIMER))
        .as(Candidate::new);
  }

  @Property(tries = 300, seed = "2024")
  void aMeterIsExportedExactlyWhenItsFamilyIsPublic(@ForAll("meters") Candidate meter) {
    PrometheusMeterRegistry restricted = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    PublicSeriesFilter.restrict(restricted, MetricsConfig.DEFAULT);
    Meter registered = register(restricted, meter);
    String family = PublicSeriesFilter.family(registered.getId());
    boolean exported = ScrapedFamilies.of(restricted.scrape()).stream().anyMatch(f -> f.startsWith(family));
    assertEquals(MetricCatalog.isPublic(family), exported, meter + " as " + family);

    PrometheusMeterRegistry raw = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    PublicSeriesFilter.restrict(raw, MetricsConfig.raw(true));
    register(raw, meter);
    assertTrue(ScrapedFamilies.of(raw.scrape()).stream().anyMatch(f -> f.startsWith(family)), meter + " with metrics.raw");
  }

  private static Meter register(MeterRegistry registry, Candidate meter) {
    return switch (meter.type()) {
      case COUNTER -> Counter.builder(meter.name()).register(registry);
      case TIMER -> Timer.builder(meter.name()).register(registry);
      default -> Gauge.builder(meter.name(), () -> 1).register(registry);
    };
  }

  /** A Prometheus family back in Micrometer's form: dots, no _total (the registry adds it to counters). */
  private static String dotted(String family) {
    return family.replaceAll("_total$", "").replace('_', '.');
  }
}
