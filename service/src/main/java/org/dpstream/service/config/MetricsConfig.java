package org.dpstream.service.config;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code metrics:} section: what /metrics exports (docs/operations.md, "Metrics").
 *
 * @param raw true: /metrics also exports the raw series, exact statistics of the data (clipped samples, rejection
 *     reasons, latencies, decisions per arm, rewards, Kafka's byte and latency metrics); whoever reads /metrics,
 *     Prometheus or Grafana then holds raw data. Default false: only public series
 * @param perModelLimit every model has its per-model series when at most this many models are configured;
 *     default {@value #DEFAULT_PER_MODEL_LIMIT}. Beyond it only the models listed in {@code models} have them, and
 *     the per-instance aggregates carry the signal
 * @param models models with per-model series whatever the number of models (configured ids)
 */
public record MetricsConfig(Boolean raw, Integer perModelLimit, List<String> models) {

  /** About five series a model: 100 models stay within a few hundred series. */
  public static final int DEFAULT_PER_MODEL_LIMIT = 100;
  public static final MetricsConfig DEFAULT = new MetricsConfig(null, null, null);

  public MetricsConfig {
    raw = raw != null && raw;
    perModelLimit = perModelLimit == null ? DEFAULT_PER_MODEL_LIMIT : perModelLimit;
    models = List.copyOf(models == null ? List.of() : models);
    if (perModelLimit < 0) {
      throw new IllegalArgumentException("metrics.perModelLimit must be 0 or more, got " + perModelLimit);
    }
  }

  /** The public series only (the default) or the raw ones too. */
  public static MetricsConfig raw(boolean raw) {
    return new MetricsConfig(raw, null, null);
  }

  /**
   * The models that have per-model series among {@code configured}: all of them up to {@code perModelLimit},
   * else those listed in {@code models}.
   *
   * @throws IllegalArgumentException if {@code models} names a model that is not configured
   */
  public Set<String> modelsWithSeries(List<String> configured) {
    for (String listed : models) {
      if (!configured.contains(listed)) {
        throw new IllegalArgumentException("metrics.models: " + listed + " is not a configured model");
      }
    }
    return new LinkedHashSet<>(configured.size() <= perModelLimit ? configured : models);
  }
}
