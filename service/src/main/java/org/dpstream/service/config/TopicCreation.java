package org.dpstream.service.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.config.TopicConfig;
import org.dpstream.service.kafka.TopicNames;
import org.dpstream.service.kafka.TopicSpec;

/**
 * How {@code dpstream run} creates the topics it uses when they are missing (the {@code createTopics:}
 * section). Existing topics are never changed.
 *
 * @param enabled false: every topic must exist already, and run stops naming the missing ones
 * @param partitions of each created topic; the input topics' partitions bound the service's parallelism
 * @param replicationFactor of each created topic, -1 for the broker's default; also Kafka Streams'
 *     {@code replication.factor} for its internal (changelog) topics unless {@code kafka:} sets it
 * @param configs topic-level settings by topic (the keys of {@code topics:}), on top of {@link #DEFAULT_CONFIGS}
 */
public record TopicCreation(Boolean enabled, Integer partitions, Integer replicationFactor,
    Map<String, Map<String, String>> configs) {

  public static final int DEFAULT_PARTITIONS = 3;
  public static final int DEFAULT_REPLICATION_FACTOR = -1;
  /** Seven days: rejected records carry the raw input, so they are kept for inspection, not forever. */
  public static final String REJECTED_RETENTION_MS = "604800000";
  /**
   * What a created topic gets unless {@code configs} says otherwise. Input, releases and decisions keep the
   * broker's retention (log.retention.*, 7 days by default); see README, "Topics the service creates".
   */
  public static final Map<String, Map<String, String>> DEFAULT_CONFIGS = Map.of(
      "rejected", Map.of(TopicConfig.RETENTION_MS_CONFIG, REJECTED_RETENTION_MS));

  private static final Set<String> ROLES = Set.of("samples", "releases", "rejected", "contexts", "decisions", "rewards",
      "decided");

  public TopicCreation {
    enabled = enabled == null || enabled;
    partitions = partitions == null ? DEFAULT_PARTITIONS : partitions;
    replicationFactor = replicationFactor == null ? DEFAULT_REPLICATION_FACTOR : replicationFactor;
    configs = Map.copyOf(configs == null ? Map.of() : configs);
    if (partitions < 1) {
      throw new IllegalArgumentException("createTopics.partitions must be at least 1, got " + partitions);
    }
    if (replicationFactor != -1 && (replicationFactor < 1 || replicationFactor > Short.MAX_VALUE)) {
      throw new IllegalArgumentException(
          "createTopics.replicationFactor must be -1 (broker default) or at least 1, got " + replicationFactor);
    }
    for (String role : configs.keySet()) {
      if (!ROLES.contains(role)) {
        throw new IllegalArgumentException("createTopics.configs." + role + ": not a topic the service uses; one of "
            + new TreeSet<>(ROLES));
      }
    }
  }

  /** The defaults: create missing topics with 3 partitions and the broker's replication factor. */
  public static TopicCreation defaults() {
    return new TopicCreation(null, null, null, null);
  }

  /**
   * The topics the service reads or writes: samples, releases and rejected always, the bandit topics when
   * bandits are configured; each with its topic-level settings.
   */
  public List<TopicSpec> specs(TopicNames names, boolean withBandits) {
    Map<String, String> byRole = new LinkedHashMap<>();
    byRole.put("samples", names.samples());
    byRole.put("releases", names.releases());
    byRole.put("rejected", names.rejected());
    if (withBandits) {
      byRole.put("contexts", names.contexts());
      byRole.put("decisions", names.decisions());
      byRole.put("rewards", names.rewards());
      byRole.put("decided", names.decided());
    }
    List<TopicSpec> specs = new ArrayList<>();
    byRole.forEach((role, name) -> {
      Map<String, String> topicConfigs = new LinkedHashMap<>(DEFAULT_CONFIGS.getOrDefault(role, Map.of()));
      topicConfigs.putAll(configs.getOrDefault(role, Map.of()));
      specs.add(new TopicSpec(name, partitions, topicConfigs));
    });
    return specs;
  }
}
