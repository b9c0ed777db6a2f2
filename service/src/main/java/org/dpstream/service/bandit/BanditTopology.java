package org.dpstream.service.bandit;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.state.Stores;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.service.noise.NoiseContext;
import org.dpstream.schemas.BanditStepRelease;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.metrics.BanditMetrics;
import org.dpstream.service.routing.Routing;
import org.dpstream.service.routing.TypedSinks;

/**
 * The bandit sub-topology (DP-HDB as a decision service):
 *
 * <pre>
 * contexts-source (dp.contexts, raw bytes) -> contexts-router --+
 *                                                               +--> bandit-routing repartition topic
 * rewards-source  (dp.rewards,  raw bytes) -> rewards-router  --+    (partition = murmur2(bandit id) mod routingPartitions)
 *   -> bandit (decide / join / learn / expire; stores bandit-state, bandit-pending, bandit-clock)
 *   -> dp.decisions (key = bandit id, DecisionResponse)
 *   -> dp.releases  (key = bandit id, BanditStepRelease per release step; releaseFormat arms: key = banditId/arm-i,
 *                    ModelRelease per arm)
 *   -> dp.rejected  (key = input key, RejectedRecord)
 * </pre>
 *
 * With {@link Deciding#BY_DECIDERS} the first input is the decision log ({@code dp.contexts.decided},
 * {@code DecidedRequest}) and nothing goes to dp.decisions: the deciders wrote it (docs/bandit-decider.md).
 *
 * <p>Contexts and rewards are routed by bandit id into one routing topic, so a bandit's contexts and
 * rewards meet in its one task whatever partitions they were written to and however many partitions
 * the two input topics have: no co-partitioning is required. The bandit's history is the order of its
 * records in the routing topic (see docs/bandit-service.md).
 *
 * <p>Node, store and routing-topic names are pinned: the changelog and routing topics are named after
 * them, so a rename would orphan every bandit's state and pending decisions. The deadline index of the pending
 * requests is not stored: it is derived from the pending store in memory ({@link Deadlines}); the changelog topic
 * of the store it once had ({@code <application.id>-bandit-deadlines-changelog}) is no longer used.
 */
public final class BanditTopology {

  public static final String ROUTING = "bandit-routing";
  public static final String CONTEXTS_INPUT = "contexts";
  public static final String REWARDS_INPUT = "rewards";
  public static final String DECIDED_INPUT = "decided";
  public static final String PROCESSOR = "bandit";
  public static final String DECISIONS_SINK = "decisions-sink";
  public static final String RELEASES_SINK = "bandit-releases-sink";
  public static final String STEP_RELEASES_SINK = "bandit-step-releases-sink";
  public static final String REJECTED_SINK = "bandit-rejected-sink";
  public static final String STATE_STORE = "bandit-state";
  public static final String PENDING_STORE = "bandit-pending";
  public static final String CLOCK_STORE = "bandit-clock";

  private BanditTopology() {}

  /** A topology with only the bandits (for tests and tools). */
  public static Topology build(BanditRegistry bandits, Topics topics, int routingPartitions, KeyedNoiseSource noise,
      BanditMetrics metrics) {
    StreamsBuilder builder = new StreamsBuilder();
    addTo(builder, bandits, topics, routingPartitions, NoiseContext.of(noise), metrics, Deciding.IN_TOPOLOGY);
    return builder.build();
  }

  /** Who decides a bandit's requests. */
  public enum Deciding {
    /** The topology: contexts from dp.contexts, decided inside the learning transaction. */
    IN_TOPOLOGY,
    /**
     * Deciders outside the transaction (the HTTP API and the context decider), from the released
     * parameters: the topology reads their decision log instead of dp.contexts and only learns.
     */
    BY_DECIDERS
  }

  /** Adds the bandit sub-topology, deciding in the topology (see {@link Deciding}), with one key, nothing published. */
  public static void addTo(StreamsBuilder builder, BanditRegistry bandits, Topics topics, int routingPartitions,
      KeyedNoiseSource noise, BanditMetrics metrics) {
    addTo(builder, bandits, topics, routingPartitions, NoiseContext.of(noise), metrics, Deciding.IN_TOPOLOGY);
  }

  /** Adds the bandit sub-topology to a builder (the service adds it next to the continual release). */
  public static void addTo(StreamsBuilder builder, BanditRegistry bandits, Topics topics, int routingPartitions,
      NoiseContext noise, BanditMetrics metrics, Deciding deciding) {
    addTo(builder, bandits, topics, routingPartitions, noise, metrics, deciding, BanditPolicies.PRIVATE);
  }

  /** Test seam: with {@code policies} starting and resuming the bandits. */
  static void addTo(StreamsBuilder builder, BanditRegistry bandits, Topics topics, int routingPartitions,
      NoiseContext noise, BanditMetrics metrics, Deciding deciding, BanditPolicies policies) {
    addStore(builder, STATE_STORE, Serdes.ByteArray(), true);
    addStore(builder, PENDING_STORE, Serdes.ByteArray(), false);
    addStore(builder, CLOCK_STORE, Serdes.Long(), true);
    Routing.Input requests = deciding == Deciding.IN_TOPOLOGY
        ? new Routing.Input(topics.contexts().name(), CONTEXTS_INPUT)
        : new Routing.Input(topics.decided().name(), DECIDED_INPUT);
    KStream<String, byte[]> routed = Routing.route(builder, ROUTING, routingPartitions, List.of(
        requests, new Routing.Input(topics.rewards().name(), REWARDS_INPUT)));
    KStream<String, Object> outputs = routed.process(
        () -> new BanditProcessor(bandits, routingPartitions, noise, metrics, deciding == Deciding.BY_DECIDERS,
            policies),
        Named.as(PROCESSOR),
        STATE_STORE, PENDING_STORE, CLOCK_STORE);
    TypedSinks.attach(outputs, PROCESSOR + "-out", List.of(
        new TypedSinks.Sink<>(DECISIONS_SINK, DecisionResponse.class, topics.decisions()),
        new TypedSinks.Sink<>(RELEASES_SINK, ModelRelease.class, topics.releases()),
        new TypedSinks.Sink<>(STEP_RELEASES_SINK, BanditStepRelease.class, topics.banditSteps()),
        new TypedSinks.Sink<>(REJECTED_SINK, RejectedRecord.class, topics.rejected())));
  }

  /**
   * Adds a logged store. {@code cached}: behind Kafka Streams' record cache, which collapses the writes of one key
   * within a commit interval into one. The bandit's state and clock (one key per bandit, written every round) are
   * cached; the pending requests are not: each of their keys is written two or three times over a reward timeout,
   * so the cache saved few writes, and it kept every completion marker's entry (key, value,
   * record context and headers, a dozen objects) until its LRU evicted it, about 20 s at 2,000 rounds/s. Those
   * objects were most of what every young collection copied: without them the collector's pauses fell by half and
   * the heap stopped growing (docs/benchmarks.md, "What the young collections copy").
   */
  private static <V> void addStore(StreamsBuilder builder, String name, Serde<V> values, boolean cached) {
    var store = Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.String(), values)
        .withLoggingEnabled(Map.of());
    builder.addStateStore(cached ? store.withCachingEnabled() : store.withCachingDisabled());
  }
}
