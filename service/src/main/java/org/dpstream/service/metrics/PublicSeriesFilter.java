package org.dpstream.service.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.config.MeterFilterReply;
import io.micrometer.core.instrument.config.NamingConvention;
import io.micrometer.prometheusmetrics.PrometheusNamingConvention;
import org.dpstream.service.config.MetricsConfig;

/**
 * What keeps raw series off /metrics: every meter whose Prometheus family {@link MetricCatalog} does not list as
 * public becomes a no-op, whoever registers it (the service's own meters, Kafka's client metrics, a library's).
 */
public final class PublicSeriesFilter implements MeterFilter {

  private static final NamingConvention PROMETHEUS = new PrometheusNamingConvention();

  private PublicSeriesFilter() {}

  /**
   * Restricts {@code registry} to the public families unless {@code metrics.raw} is true. Call it before anything
   * registers a meter: a filter does not reach meters registered before it.
   */
  public static void restrict(MeterRegistry registry, MetricsConfig metrics) {
    if (!metrics.raw()) {
      registry.config().meterFilter(new PublicSeriesFilter());
    }
  }

  @Override
  public MeterFilterReply accept(Meter.Id id) {
    return MetricCatalog.isPublic(family(id)) ? MeterFilterReply.NEUTRAL : MeterFilterReply.DENY;
  }

  /** The family the Prometheus registry exports a meter as: its name in Prometheus' convention, counters with _total. */
  static String family(Meter.Id id) {
    String name = PROMETHEUS.name(id.getName(), id.getType(), id.getBaseUnit());
    return id.getType() == Meter.Type.COUNTER && !name.endsWith("_total") ? name + "_total" : name;
  }
}
