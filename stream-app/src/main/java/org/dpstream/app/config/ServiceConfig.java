package org.dpstream.app.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.dpstream.app.kafka.TopicNames;

/**
 * The whole service configuration, as read from the YAML file.
 *
 * @param applicationId Kafka Streams application id (consumer group, state and changelog names)
 * @param topics topic names (defaults: the dp.* names)
 * @param models the continual-release models
 * @param kafka Kafka client and Streams settings, passed through untouched (SASL/SSL included)
 * @param metricsPort port of the Prometheus endpoint /metrics; 0 disables it; default 9400
 */
public record ServiceConfig(
    String applicationId,
    TopicNames topics,
    List<ModelConfig> models,
    Map<String, String> kafka,
    Integer metricsPort) {

  /** Port of /metrics when the file does not say. */
  public static final int DEFAULT_METRICS_PORT = 9400;

  public ServiceConfig {
    Objects.requireNonNull(applicationId, "applicationId");
    topics = topics == null ? TopicNames.defaults() : topics;
    models = List.copyOf(models == null ? List.of() : models);
    kafka = Map.copyOf(kafka == null ? Map.of() : kafka);
    metricsPort = metricsPort == null ? DEFAULT_METRICS_PORT : metricsPort;
  }

  /** The models' specs by id, each checked; duplicate ids are refused. */
  public ModelRegistry registry() {
    Map<String, ModelRegistry.Entry> entries = new LinkedHashMap<>();
    for (ModelConfig model : models) {
      ModelRegistry.Entry entry = new ModelRegistry.Entry(model.toSpec(), model.releaseEvery());
      if (entries.put(entry.spec().modelId(), entry) != null) {
        throw new IllegalArgumentException("model id " + model.id() + " is configured twice");
      }
    }
    return new ModelRegistry(entries);
  }
}
