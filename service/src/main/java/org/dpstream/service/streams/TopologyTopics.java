package org.dpstream.service.streams;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.streams.TopologyDescription;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.kafka.TopicNames;

/**
 * The topics the service's Kafka Streams topology uses, read from the topology itself ({@link
 * DpstreamService#topology}): the configured topics it reads and writes, and the names of the internal
 * topics Kafka Streams creates for it, {@code <applicationId>-<name>-repartition} for each routing topic and
 * {@code <applicationId>-<store>-changelog} for each (logged) store. A topic the topology gains appears here
 * without anyone listing it.
 *
 * @param reads configured topics the topology consumes
 * @param writes configured topics the topology produces to
 * @param internal the internal topics' full names, all starting with {@link #internalPrefix}
 * @param repartition those of the internal topics that are routing (repartition) topics, whose consumed records
 *     Kafka Streams deletes
 * @param internalPrefix {@code <applicationId>-}
 */
public record TopologyTopics(Set<String> reads, Set<String> writes, Set<String> internal, Set<String> repartition,
    String internalPrefix) {

  public TopologyTopics {
    reads = Set.copyOf(reads);
    writes = Set.copyOf(writes);
    internal = Set.copyOf(internal);
    repartition = Set.copyOf(repartition);
  }

  /**
   * The topics of {@code config}'s topology. The topology is built with a random noise key, never used: its
   * shape does not depend on the key, and building draws no noise.
   */
  public static TopologyTopics of(ServiceConfig config) {
    TopologyDescription description = DpstreamService.topology(config, new KeyedNoiseSource(NoiseKey.random()),
        new SimpleMeterRegistry()).describe();
    Set<String> configured = configuredNames(config.topics());
    String prefix = config.applicationId() + "-";
    Set<String> reads = new TreeSet<>();
    Set<String> writes = new TreeSet<>();
    Set<String> repartition = new TreeSet<>();
    for (TopologyDescription.Subtopology subtopology : description.subtopologies()) {
      for (TopologyDescription.Node node : subtopology.nodes()) {
        if (node instanceof TopologyDescription.Source source) {
          sort(source.topicSet(), configured, reads, repartition, prefix);
        } else if (node instanceof TopologyDescription.Sink sink) {
          sort(Set.of(sink.topic()), configured, writes, repartition, prefix);
        }
      }
    }
    Set<String> internal = new TreeSet<>(repartition);
    for (TopologyDescription.Subtopology subtopology : description.subtopologies()) {
      for (TopologyDescription.Node node : subtopology.nodes()) {
        if (node instanceof TopologyDescription.Processor processor) {
          processor.stores().forEach(store -> internal.add(prefix + store + "-changelog"));
        }
      }
    }
    if (!description.globalStores().isEmpty()) {
      throw new IllegalStateException("the topology has global stores, which TopologyTopics does not list");
    }
    return new TopologyTopics(reads, writes, internal, repartition, prefix);
  }

  /**
   * A configured topic goes to {@code user}; any other a source or sink names is a repartition topic, named by Kafka
   * Streams after the application.
   */
  private static void sort(Collection<String> topics, Set<String> configured, Set<String> user,
      Set<String> repartition, String prefix) {
    for (String topic : topics) {
      if (configured.contains(topic)) {
        user.add(topic);
      } else {
        repartition.add(prefix + topic);
      }
    }
  }

  private static Set<String> configuredNames(TopicNames names) {
    return Set.of(names.samples(), names.releases(), names.rejected(), names.contexts(), names.decisions(),
        names.rewards(), names.decided());
  }
}
