package org.dpstream.service.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.dpstream.service.contribution.ContributionCounts;
import org.dpstream.service.kafka.TopicNames;
import org.dpstream.service.serde.OutputFormat;

/**
 * The whole service configuration, as read from the YAML file.
 *
 * @param applicationId Kafka Streams application id (consumer group, state and changelog names)
 * @param topics topic names (defaults: the dp.* names)
 * @param models the continual-release models
 * @param kafka Kafka client and Streams settings, passed through untouched (SASL/SSL included)
 * @param metricsPort port of the Prometheus endpoint /metrics; 0 disables it; default 9400
 * @param bandits the DP-HDB bandits (decisions on dp.decisions, per-arm releases on dp.releases)
 * @param routingPartitions partitions of the internal routing topics that place every model and bandit in
 *     exactly one task (the unit of parallelism); fixed for the application's life; default 6
 * @param output how the service's own records are written (output.format: avro or json)
 * @param createTopics how {@code run} creates missing topics (default: 3 partitions, broker's replication)
 * @param instanceId this instance's static group membership id ({@code group.instance.id}); null: dynamic
 * @param decider how the bandits decide (the {@code decider:} section; default: deciders with the HTTP API)
 * @param metrics what /metrics exports (the {@code metrics:} section; default: public series only, per-model series
 *     up to 100 models)
 * @param metricsAddress the address /metrics (with /health and /ready) listens on, a host name or IP address;
 *     default: every interface
 * @param liveModelsPerTask models a task keeps loaded on the heap (their estimators), the most recently stepped (a
 *     model that has not stepped for a minute is dropped too); another model's state is read from its task's store
 *     when a sample of it comes; default
 *     {@value #DEFAULT_LIVE_MODELS_PER_TASK} (docs/operations.md, "Many models")
 */
public record ServiceConfig(
    String applicationId,
    TopicNames topics,
    List<ModelConfig> models,
    Map<String, String> kafka,
    Integer metricsPort,
    List<BanditConfig> bandits,
    Integer routingPartitions,
    OutputConfig output,
    TopicCreation createTopics,
    String instanceId,
    DeciderConfig decider,
    MetricsConfig metrics,
    String metricsAddress,
    Integer liveModelsPerTask) {

  /** Port of /metrics when the file does not say. */
  public static final int DEFAULT_METRICS_PORT = 9400;

  /**
   * Routing partitions when the file does not say: more tasks than a two-instance deployment has threads,
   * few enough that an idle task costs little.
   */
  public static final int DEFAULT_ROUTING_PARTITIONS = 6;

  /**
   * Live models per task when the file does not say: ten thousand models stepping at once over the default 6 tasks
   * stay loaded (a task that reloads a model for every sample learnt at a fifth of the rate in docs/benchmarks.md,
   * "Many models"), and an instance keeps at most 6 x 2,000 estimators, about 14 KB each at d = 20, on its heap.
   */
  public static final int DEFAULT_LIVE_MODELS_PER_TASK = 2_000;

  public ServiceConfig {
    Objects.requireNonNull(applicationId, "applicationId");
    topics = topics == null ? TopicNames.defaults() : topics;
    models = List.copyOf(models == null ? List.of() : models);
    kafka = Map.copyOf(kafka == null ? Map.of() : kafka);
    metricsPort = metricsPort == null ? DEFAULT_METRICS_PORT : metricsPort;
    bandits = List.copyOf(bandits == null ? List.of() : bandits);
    routingPartitions = routingPartitions == null ? DEFAULT_ROUTING_PARTITIONS : routingPartitions;
    if (routingPartitions < 1) {
      throw new IllegalArgumentException("routingPartitions must be at least 1, got " + routingPartitions);
    }
    output = output == null ? OutputConfig.DEFAULT : output;
    createTopics = createTopics == null ? TopicCreation.defaults() : createTopics;
    instanceId = InstanceIds.checked(instanceId, kafka);
    decider = decider == null ? DeciderConfig.DEFAULT : decider;
    metrics = metrics == null ? MetricsConfig.DEFAULT : metrics;
    if (metricsAddress != null && metricsAddress.isBlank()) {
      throw new IllegalArgumentException("metricsAddress must name a host or address (leave it out for every"
          + " interface)");
    }
    liveModelsPerTask = liveModelsPerTask == null ? DEFAULT_LIVE_MODELS_PER_TASK : liveModelsPerTask;
    if (liveModelsPerTask < 1) {
      throw new IllegalArgumentException("liveModelsPerTask must be at least 1, got " + liveModelsPerTask);
    }
  }

  /** A configuration with the default number of live models per task. */
  public ServiceConfig(String applicationId, TopicNames topics, List<ModelConfig> models, Map<String, String> kafka,
      Integer metricsPort, List<BanditConfig> bandits, Integer routingPartitions, OutputConfig output,
      TopicCreation createTopics, String instanceId, DeciderConfig decider, MetricsConfig metrics,
      String metricsAddress) {
    this(applicationId, topics, models, kafka, metricsPort, bandits, routingPartitions, output, createTopics,
        instanceId, decider, metrics, metricsAddress, null);
  }

  /** The same configuration with this many live models per task. */
  public ServiceConfig withLiveModelsPerTask(int live) {
    return new ServiceConfig(applicationId, topics, models, kafka, metricsPort, bandits, routingPartitions, output,
        createTopics, instanceId, decider, metrics, metricsAddress, live);
  }

  /** A configuration with the default {@code metrics:} section and /metrics on every interface. */
  public ServiceConfig(String applicationId, TopicNames topics, List<ModelConfig> models, Map<String, String> kafka,
      Integer metricsPort, List<BanditConfig> bandits, Integer routingPartitions, OutputConfig output,
      TopicCreation createTopics, String instanceId, DeciderConfig decider) {
    this(applicationId, topics, models, kafka, metricsPort, bandits, routingPartitions, output, createTopics,
        instanceId, decider, null, null);
  }

  /** The same configuration with this {@code metrics:} section. */
  public ServiceConfig withMetrics(MetricsConfig newMetrics) {
    return new ServiceConfig(applicationId, topics, models, kafka, metricsPort, bandits, routingPartitions, output,
        createTopics, instanceId, decider, newMetrics, metricsAddress, liveModelsPerTask);
  }

  /** The ids of the models that have per-model series on /metrics ({@link MetricsConfig#modelsWithSeries}). */
  public java.util.Set<String> modelsWithSeries() {
    return metrics.modelsWithSeries(models.stream().map(ModelConfig::id).toList());
  }

  /** A configuration with the default {@code decider:} section. */
  public ServiceConfig(String applicationId, TopicNames topics, List<ModelConfig> models, Map<String, String> kafka,
      Integer metricsPort, List<BanditConfig> bandits, Integer routingPartitions, OutputConfig output,
      TopicCreation createTopics, String instanceId) {
    this(applicationId, topics, models, kafka, metricsPort, bandits, routingPartitions, output, createTopics,
        instanceId, null);
  }

  /** The same configuration with this {@code decider:} section. */
  public ServiceConfig withDecider(DeciderConfig newDecider) {
    return new ServiceConfig(applicationId, topics, models, kafka, metricsPort, bandits, routingPartitions, output,
        createTopics, instanceId, newDecider, metrics, metricsAddress, liveModelsPerTask);
  }

  /** A configuration with these bandits, the default routing, Avro outputs, default topic creation and dynamic membership. */
  public ServiceConfig(String applicationId, TopicNames topics, List<ModelConfig> models, Map<String, String> kafka,
      Integer metricsPort, List<BanditConfig> bandits) {
    this(applicationId, topics, models, kafka, metricsPort, bandits, null, null, null, null);
  }

  /** A configuration without bandits (the continual-release models only). */
  public ServiceConfig(String applicationId, TopicNames topics, List<ModelConfig> models, Map<String, String> kafka,
      Integer metricsPort) {
    this(applicationId, topics, models, kafka, metricsPort, List.of(), null, null, null, null);
  }


  /** The same configuration with these bandits. */
  public ServiceConfig withBandits(List<BanditConfig> newBandits) {
    return new ServiceConfig(applicationId, topics, models, kafka, metricsPort, newBandits, routingPartitions, output,
        createTopics, instanceId, decider, metrics, metricsAddress, liveModelsPerTask);
  }

  /** The same configuration with another routing partition count. */
  public ServiceConfig withRoutingPartitions(int partitions) {
    return new ServiceConfig(applicationId, topics, models, kafka, metricsPort, bandits, partitions, output,
        createTopics, instanceId, decider, metrics, metricsAddress, liveModelsPerTask);
  }

  /** The same configuration with its outputs in this format. */
  public ServiceConfig withOutputFormat(OutputFormat format) {
    return new ServiceConfig(applicationId, topics, models, kafka, metricsPort, bandits, routingPartitions,
        new OutputConfig(format.name().toLowerCase(Locale.ROOT)), createTopics, instanceId, decider, metrics,
        metricsAddress, liveModelsPerTask);
  }

  /** The same configuration with this static membership id (null: dynamic membership). */
  public ServiceConfig withInstanceId(String newInstanceId) {
    return new ServiceConfig(applicationId, topics, models, kafka, metricsPort, bandits, routingPartitions, output,
        createTopics, newInstanceId, decider, metrics, metricsAddress, liveModelsPerTask);
  }

  /** The models' specs by id, each checked; duplicate ids are refused. */
  public ModelRegistry registry() {
    Map<String, ModelRegistry.Entry> entries = new LinkedHashMap<>();
    for (ModelConfig model : models) {
      ContributionCounts.requireUnitId(model.id());
      ModelRegistry.Entry entry =
          new ModelRegistry.Entry(model.toSpec(), model.releaseEvery(), model.noiseGeneration(), model.unit());
      if (entries.put(entry.spec().modelId(), entry) != null) {
        throw new IllegalArgumentException("model id " + model.id() + " is configured twice");
      }
    }
    return new ModelRegistry(entries);
  }

  /**
   * The bandits' specs by id, each checked; duplicate ids are refused, and so is any model or bandit whose id is one
   * another bandit derives ({@link org.dpstream.bandit.BanditSpec#derivedIds}: its arms' release ids
   * {@code id/arm-i}, DP-HDB's {@code id/forced-sampling}, DP-Linear's statistics streams {@code id/arm-i/stats}):
   * their releases would share a key, and their noise, but for its kind, a stream. A bandit publishing step records
   * ({@link BanditReleaseFormat#STEP}) may not share its id with a model either: both would be release keys.
   */
  public BanditRegistry banditRegistry() {
    Map<String, BanditRegistry.Entry> entries = new LinkedHashMap<>();
    for (BanditConfig bandit : bandits) {
      BanditRegistry.Entry entry = bandit.toEntry();
      if (entries.put(entry.spec().banditId(), entry) != null) {
        throw new IllegalArgumentException("bandit id " + bandit.id() + " is configured twice");
      }
    }
    java.util.Set<String> modelIds = new java.util.HashSet<>();
    models.forEach(m -> modelIds.add(m.id()));
    for (BanditRegistry.Entry entry : entries.values()) {
      String banditId = entry.spec().banditId();
      if (entry.releaseFormat() == BanditReleaseFormat.STEP && modelIds.contains(banditId)) {
        throw new IllegalArgumentException("bandit " + banditId + ": its release steps are keyed by its id on the"
            + " releases topic, as the model " + banditId + "'s releases are; rename one, or give the bandit"
            + " releaseFormat: arms");
      }
      for (String derived : entry.spec().derivedIds()) {
        if (modelIds.contains(derived)) {
          throw new IllegalArgumentException("bandit " + entry.spec().banditId() + ": " + derived
              + ", an id it derives (its arms' releases and noise streams), is also a model id");
        }
        if (entries.containsKey(derived)) {
          throw new IllegalArgumentException("bandit " + entry.spec().banditId() + ": " + derived
              + ", an id it derives (its arms' releases and noise streams), is also a bandit id");
        }
      }
    }
    return new BanditRegistry(entries);
  }
}
