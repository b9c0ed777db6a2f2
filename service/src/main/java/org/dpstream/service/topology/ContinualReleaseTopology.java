package org.dpstream.service.topology;

import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.state.Stores;
import org.dpstream.core.online.EstimatorFactory;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.service.config.ModelRegistry;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.metrics.ModelMetrics;
import org.dpstream.service.noise.NoiseContext;
import org.dpstream.service.routing.Routing;
import org.dpstream.service.routing.TypedSinks;
import org.dpstream.service.serde.DpSerdes;

/**
 * The continual-release topology:
 *
 * <pre>
 * samples-source (dp.samples, raw bytes, any partitioning)
 *   -> samples-router (key bytes -> model id, source coordinates into headers)
 *   -> model-routing repartition topic (partition = murmur2(model id) mod routingPartitions)
 *   -> validate (decode Avro or JSON, check model, dimension, label)       --reject--> dp.rejected
 *   -> learn (one private step per sample; model-state store)              --reject--> dp.rejected
 *   -> dp.releases (every k-th step)
 * </pre>
 *
 * Routing makes each model's task a function of its id alone (ARCHITECTURE.md 4.8): a model has one
 * state, one ledger and one noise sequence whatever partitioner the producer used and however many
 * partitions dp.samples has. Node, store and routing-topic names are pinned: the changelog and routing
 * topics are named after them, so renaming one would orphan every model's state.
 */
public final class ContinualReleaseTopology {

  public static final String ROUTING = "model-routing";
  public static final String SAMPLES_INPUT = "samples";
  public static final String VALIDATE = "validate";
  public static final String LEARN = "learn";
  public static final String RELEASES_SINK = "releases-sink";
  public static final String REJECTED_SINK = "rejected-sink";
  public static final String MODEL_STATE_STORE = "model-state";

  private ContinualReleaseTopology() {}

  /** A topology with only the continual release (for tests and tools): one key, nothing published before. */
  public static Topology build(ModelRegistry models, Topics topics, int routingPartitions, KeyedNoiseSource noise,
      ModelMetrics metrics) {
    return build(models, topics, routingPartitions, NoiseContext.of(noise), metrics, EstimatorFactory.PRIVATE);
  }

  /** Test seam: the topology with other estimators (e.g. a model that fails on purpose). */
  static Topology build(ModelRegistry models, Topics topics, int routingPartitions, KeyedNoiseSource noise,
      ModelMetrics metrics, EstimatorFactory estimators) {
    return build(models, topics, routingPartitions, NoiseContext.of(noise), metrics, estimators);
  }

  /** Test seam: the topology with a key ring and a record of what was published. */
  static Topology build(ModelRegistry models, Topics topics, int routingPartitions, NoiseContext noise,
      ModelMetrics metrics, EstimatorFactory estimators) {
    return build(models, topics, routingPartitions, noise, metrics, estimators,
        org.dpstream.service.config.ServiceConfig.DEFAULT_LIVE_MODELS_PER_TASK);
  }

  /** Test seam: the topology keeping at most {@code liveModels} models loaded per task. */
  static Topology build(ModelRegistry models, Topics topics, int routingPartitions, NoiseContext noise,
      ModelMetrics metrics, EstimatorFactory estimators, int liveModels) {
    StreamsBuilder builder = new StreamsBuilder();
    addTo(builder, models, topics, routingPartitions, noise, metrics, estimators, liveModels);
    return builder.build();
  }

  /**
   * Adds the continual release to a builder (the service adds the bandits next to it); each task keeps at most
   * {@code liveModels} models loaded.
   */
  public static void addTo(StreamsBuilder builder, ModelRegistry models, Topics topics, int routingPartitions,
      NoiseContext noise, ModelMetrics metrics, int liveModels) {
    addTo(builder, models, topics, routingPartitions, noise, metrics, EstimatorFactory.PRIVATE, liveModels);
  }

  private static void addTo(StreamsBuilder builder, ModelRegistry models, Topics topics, int routingPartitions,
      NoiseContext noise, ModelMetrics metrics, EstimatorFactory estimators, int liveModels) {
    builder.addStateStore(
        Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(MODEL_STATE_STORE), Serdes.String(), Serdes.ByteArray())
            .withCachingEnabled()
            .withLoggingEnabled(java.util.Map.of()));
    KStream<String, byte[]> routed = Routing.route(builder, ROUTING, routingPartitions,
        List.of(new Routing.Input(topics.samples().name(), SAMPLES_INPUT)));
    KStream<String, Object> validated =
        routed.process(() -> new SampleValidationProcessor(models, DpSerdes.sample(), metrics), Named.as(VALIDATE));
    KStream<String, Object> learnt = validated
        .filter((modelId, value) -> value instanceof ValidatedSample, Named.as(LEARN + "-input"))
        .mapValues(value -> (ValidatedSample) value, Named.as(LEARN + "-cast"))
        .process(() -> new LearnProcessor(models, routingPartitions, noise, metrics, estimators,
            liveModels), Named.as(LEARN), MODEL_STATE_STORE);
    TypedSinks.Sink<RejectedRecord> rejected =
        new TypedSinks.Sink<>(REJECTED_SINK, RejectedRecord.class, topics.rejected());
    TypedSinks.attach(validated.filterNot((modelId, value) -> value instanceof ValidatedSample,
        Named.as(VALIDATE + "-rejections")), VALIDATE + "-out", List.of(rejected));
    TypedSinks.attach(learnt, LEARN + "-out", List.of(
        new TypedSinks.Sink<>(RELEASES_SINK, ModelRelease.class, topics.releases()),
        new TypedSinks.Sink<>(REJECTED_SINK + "-learn", RejectedRecord.class, topics.rejected())));
  }
}
