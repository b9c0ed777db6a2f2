package org.dpstream.app.topology;

import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;
import org.dpstream.app.config.ModelRegistry;
import org.dpstream.app.kafka.Topics;
import org.dpstream.app.metrics.ModelMetrics;
import org.dpstream.app.serde.DpSerdes;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/**
 * The continual-release topology:
 *
 * <pre>
 * samples-source (dp.samples, raw bytes)
 *   -> validate (decode Avro or JSON, check model, dimension, label) --reject--> rejected-sink (dp.rejected)
 *   -> learn (one private step per sample; model-state store)         --reject--> rejected-sink
 *   -> releases-sink (dp.releases, every k-th step)
 * </pre>
 *
 * Processor, store and sink names are pinned: the store's changelog topic is named after the store,
 * so renaming it would orphan every model's state.
 */
public final class ContinualReleaseTopology {

  public static final String SAMPLES_SOURCE = "samples-source";
  public static final String VALIDATE = "validate";
  public static final String LEARN = "learn";
  public static final String RELEASES_SINK = "releases-sink";
  public static final String REJECTED_SINK = "rejected-sink";
  public static final String MODEL_STATE_STORE = "model-state";

  private ContinualReleaseTopology() {}

  public static Topology build(ModelRegistry models, Topics topics, KeyedNoiseSource noise, ModelMetrics metrics) {
    return build(models, topics, noise, metrics, LearnProcessor.Estimators.PRIVATE);
  }

  /** Test seam: the topology with other estimators (e.g. a model that fails on purpose). */
  static Topology build(ModelRegistry models, Topics topics, KeyedNoiseSource noise, ModelMetrics metrics,
      LearnProcessor.Estimators estimators) {
    Topology topology = new Topology();
    topology.addSource(SAMPLES_SOURCE, new ByteArrayDeserializer(), new ByteArrayDeserializer(), topics.samples().name());
    topology.addProcessor(VALIDATE, () -> new SampleValidationProcessor(models, DpSerdes.sample(), metrics), SAMPLES_SOURCE);
    topology.addProcessor(LEARN, () -> new LearnProcessor(models, noise, metrics, estimators), VALIDATE);
    topology.addStateStore(
        Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(MODEL_STATE_STORE), Serdes.String(), Serdes.ByteArray())
            .withCachingEnabled()
            .withLoggingEnabled(java.util.Map.of()),
        LEARN);
    topology.addSink(RELEASES_SINK, topics.releases().name(), new StringSerializer(),
        widen(topics.releases().valueSerde().serializer()), LEARN);
    topology.addSink(REJECTED_SINK, topics.rejected().name(), new StringSerializer(),
        widen(topics.rejected().valueSerde().serializer()), VALIDATE, LEARN);
    return topology;
  }

  /** The processors forward Object values to named children; each sink only ever receives its own type. */
  @SuppressWarnings("unchecked")
  private static Serializer<Object> widen(Serializer<?> serializer) {
    return (Serializer<Object>) serializer;
  }
}
