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
 * @param internalPrefix {@code <applicationId>-}
 */
public record TopologyTopics(Set<String> reads, Set<String> writes, Set<String> internal, String internalPrefix) {

  public TopologyTopics {
    reads = Set.copyOf(reads);
    writes = Set.copyOf(writes);
    internal = Set.copyOf(internal);
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
    Set<String> internal = new TreeSet<>();
    for (TopologyDescription.Subtopology subtopology : description.subtopologies()) {
      for (TopologyDescription.Node node : subtopology.nodes()) {
        if (node instanceof TopologyDescription.Source source) {
          sort(source.topicSet(), configured, reads, internal, prefix);
        } else if (node instanceof TopologyDescription.Sink sink) {
          sort(Set.of(sink.topic()), configured, writes, internal, prefix);
        } else if (node instanceof TopologyDescription.Processor processor) {
          processor.stores().forEach(store -> internal.add(prefix + store + "-changelog"));
        }
      }
    }
    if (!description.globalStores().isEmpty()) {
      throw new IllegalStateException("the topology has global stores, which TopologyTopics does not list");
    }
    return new TopologyTopics(reads, writes, internal, prefix);
  }

  /** A configured topic goes to {@code user}; any other is internal, named by Kafka Streams after the application. */
  private static void sort(Collection<String> topics, Set<String> configured, Set<String> user, Set<String> internal,
      String prefix) {
    for (String topic : topics) {
      if (configured.contains(topic)) {
        user.add(topic);
      } else {
        internal.add(prefix + topic);
      }
    }
  }

  private static Set<String> configuredNames(TopicNames names) {
    return Set.of(names.samples(), names.releases(), names.rejected(), names.contexts(), names.decisions(),
        names.rewards(), names.decided());
  }
}
