package org.dpstream.app.kafka;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.config.TopicConfig;

/**
 * A topic to create: name, partition count and topic-level configs (replication is always 1 on the
 * single embedded broker, so it is not a parameter).
 *
 * @param name the topic name
 * @param partitions at least 1
 * @param configs topic-level overrides, e.g. {@code cleanup.policy}
 */
public record TopicSpec(String name, int partitions, Map<String, String> configs) {

  public TopicSpec {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("topic name must not be blank");
    }
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be at least 1: " + partitions);
    }
    configs = Map.copyOf(configs);
  }

  /** A delete-policy topic with the broker's default configs. */
  public static TopicSpec of(String name, int partitions) {
    return new TopicSpec(name, partitions, Map.of());
  }

  /** This topic with one more topic-level config. */
  public TopicSpec withConfig(String key, String value) {
    Map<String, String> merged = new HashMap<>(configs);
    merged.put(key, value);
    return new TopicSpec(name, partitions, merged);
  }

  /** This topic, compacted: the latest value per key is kept. */
  public TopicSpec compacted() {
    return withConfig(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
  }
}
