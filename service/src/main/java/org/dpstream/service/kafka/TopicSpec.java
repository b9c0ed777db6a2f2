package org.dpstream.service.kafka;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;

/**
 * A topic to create: name, partition count and topic-level configs (the replication factor is the
 * creator's: {@link TopicProvisioner} takes it from the configuration, the embedded broker uses 1).
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

  /** This topic for the admin client (and the embedded broker of the tests), with the broker's default replication factor. */
  public NewTopic newTopic() {
    return new NewTopic(name, Optional.of(partitions), Optional.empty()).configs(configs);
  }
}
