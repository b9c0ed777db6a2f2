package org.dpstream.app.bandit;

import java.util.Map;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;
import org.dpstream.app.config.BanditRegistry;
import org.dpstream.app.kafka.Topics;
import org.dpstream.app.metrics.BanditMetrics;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/**
 * The bandit sub-topology (DP-HDB as a decision service):
 *
 * <pre>
 * bandit-contexts-source (dp.contexts, raw bytes) --+
 *                                                   +--> bandit (decide / join / learn / expire)
 * bandit-rewards-source  (dp.rewards,  raw bytes) --+      stores: bandit-state, bandit-pending,
 *                                                          bandit-deadlines, bandit-clock
 *   bandit --> decisions-sink        (dp.decisions, key = bandit id, DecisionResponse)
 *   bandit --> bandit-releases-sink  (dp.releases,  key = banditId/arm-i, ModelRelease per arm)
 *   bandit --> bandit-rejected-sink  (dp.rejected,  key = input key, RejectedRecord)
 * </pre>
 *
 * Both sources feed one processor, so Kafka Streams puts both topics in one sub-topology whose task
 * p reads partition p of each: contexts and rewards must have the same partition count and be keyed by
 * bandit id (co-partitioned), and each bandit's state is owned by exactly one task. Within a task,
 * Streams interleaves the two partitions by record timestamp, waiting for a partition with unfetched
 * data before it moves past it; the bandit's history is that interleaving (see docs/bandit-service.md).
 *
 * <p>Processor, store and sink names are pinned: the changelog topics are named after the stores, so a
 * rename would orphan every bandit's state and pending decisions.
 */
public final class BanditTopology {

  public static final String CONTEXTS_SOURCE = "bandit-contexts-source";
  public static final String REWARDS_SOURCE = "bandit-rewards-source";
  public static final String PROCESSOR = "bandit";
  public static final String DECISIONS_SINK = "decisions-sink";
  public static final String RELEASES_SINK = "bandit-releases-sink";
  public static final String REJECTED_SINK = "bandit-rejected-sink";
  public static final String STATE_STORE = "bandit-state";
  public static final String PENDING_STORE = "bandit-pending";
  public static final String DEADLINES_STORE = "bandit-deadlines";
  public static final String CLOCK_STORE = "bandit-clock";

  private BanditTopology() {}

  /** A topology with only the bandits (for tests and tools). */
  public static Topology build(BanditRegistry bandits, Topics topics, KeyedNoiseSource noise, BanditMetrics metrics) {
    Topology topology = new Topology();
    addTo(topology, bandits, topics, noise, metrics);
    return topology;
  }

  /** Adds the bandit sub-topology to a topology (the service adds it next to the continual release). */
  public static Topology addTo(Topology topology, BanditRegistry bandits, Topics topics, KeyedNoiseSource noise,
      BanditMetrics metrics) {
    String contexts = topics.contexts().name();
    topology.addSource(CONTEXTS_SOURCE, new ByteArrayDeserializer(), new ByteArrayDeserializer(), contexts);
    topology.addSource(REWARDS_SOURCE, new ByteArrayDeserializer(), new ByteArrayDeserializer(),
        topics.rewards().name());
    topology.addProcessor(PROCESSOR, () -> new BanditProcessor(bandits, noise, metrics, contexts),
        CONTEXTS_SOURCE, REWARDS_SOURCE);
    addStore(topology, STATE_STORE, Serdes.ByteArray());
    addStore(topology, PENDING_STORE, Serdes.ByteArray());
    addStore(topology, DEADLINES_STORE, Serdes.ByteArray());
    addStore(topology, CLOCK_STORE, Serdes.Long());
    topology.addSink(DECISIONS_SINK, topics.decisions().name(), new StringSerializer(),
        widen(topics.decisions().valueSerde().serializer()), PROCESSOR);
    topology.addSink(RELEASES_SINK, topics.releases().name(), new StringSerializer(),
        widen(topics.releases().valueSerde().serializer()), PROCESSOR);
    topology.addSink(REJECTED_SINK, topics.rejected().name(), new StringSerializer(),
        widen(topics.rejected().valueSerde().serializer()), PROCESSOR);
    return topology;
  }

  private static <V> void addStore(Topology topology, String name, Serde<V> values) {
    topology.addStateStore(
        Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.String(), values)
            .withCachingEnabled()
            .withLoggingEnabled(Map.of()),
        PROCESSOR);
  }

  /** The processor forwards Object values to named children; each sink only ever receives its own type. */
  @SuppressWarnings("unchecked")
  private static Serializer<Object> widen(Serializer<?> serializer) {
    return (Serializer<Object>) serializer;
  }
}
