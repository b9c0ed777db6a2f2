package org.dpstream.service.streams;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.dpstream.core.online.PrefixSumPlan;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.service.bandit.BanditTopology;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.decide.BanditDeciders;
import org.dpstream.service.decide.http.ApiSecurity;
import org.dpstream.service.health.HealthCheck;
import org.dpstream.service.health.KafkaStreamsStatus;
import org.dpstream.service.kafka.ClientFailures;
import org.dpstream.service.kafka.TopicProvisioner;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.metrics.KafkaClientMetrics;
import org.dpstream.service.metrics.MicrometerBanditMetrics;
import org.dpstream.service.metrics.MicrometerModelMetrics;
import org.dpstream.service.metrics.PublicSeriesFilter;
import org.dpstream.service.noise.BoundKeys;
import org.dpstream.service.noise.NoiseContext;
import org.dpstream.service.noise.RefusedStates;
import org.dpstream.service.release.PublishedReleases;
import org.dpstream.service.topology.ContinualReleaseTopology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running service: the continual-release topology (and the bandits, if configured) on Kafka Streams, with its metrics bound to a
 * registry. Bad input never reaches this level (the topology rejects it); an unexpected exception
 * replaces the stream thread, which resumes from the last committed transaction.
 */
public final class DpstreamService implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(DpstreamService.class);

  /** The models' instance first; the bandits' second, when bandits are configured ({@link LearningRole}). */
  private final List<KafkaStreams> instances;
  private final List<KafkaClientMetrics> streamsMetrics;
  private final KafkaStreamsStatus status;
  private final BanditDeciders deciders;
  private final NoiseContext noise;

  /** How long the start-up read of dp.releases may take before the service gives up starting. */
  static final Duration RELEASES_SCAN_TIMEOUT = Duration.ofMinutes(10);
  /** The plans kept whatever the model count: bandits' arms and a few models' next generations fit beside the models. */
  static final int PLANS_AT_LEAST = 1024;

  private DpstreamService(List<KafkaStreams> instances, List<KafkaClientMetrics> streamsMetrics,
      KafkaStreamsStatus status, BanditDeciders deciders, NoiseContext noise) {
    this.instances = instances;
    this.streamsMetrics = streamsMetrics;
    this.status = status;
    this.deciders = deciders;
    this.noise = noise;
  }

  /** Builds and starts the service with one key. The key is used to derive noise and is not kept in any other form. */
  public static DpstreamService start(ServiceConfig config, NoiseKey key, MeterRegistry registry) {
    return start(config, NoiseKeyRing.of(new KeyedNoiseSource(key)), registry);
  }

  /**
   * Builds and starts the service: reads dp.releases to its end (what every model and bandit has published decides
   * whether its state may resume or start, docs/privacy-layer.md), then starts the stream threads. New states start
   * under the ring's primary key; states bound to a retired key keep it until their next epoch boundary. The
   * registry gets only public series unless {@code metrics.raw} is true ({@link PublicSeriesFilter}): give it before
   * anything registers a meter on it.
   */
  public static DpstreamService start(ServiceConfig config, NoiseKeyRing keys, MeterRegistry registry) {
    return start(config, keys, registry, ClientFailures.NONE);
  }

  /**
   * As {@link #start(ServiceConfig, NoiseKeyRing, MeterRegistry)}; every client reports its failures to {@code
   * failures}, and one that stops the service (a refused ACL, for {@code run}) shuts Kafka Streams down
   * instead of replacing the stream thread, which would meet it again.
   *
   * @throws RuntimeException if dp.releases cannot be read or the deciders cannot start; Kafka Streams is closed again
   */
  public static DpstreamService start(ServiceConfig config, NoiseKeyRing keys, MeterRegistry registry,
      ClientFailures failures) {
    // Before anything starts: an API without its authentication settings must not leave threads behind.
    ApiSecurity apiSecurity = hasDeciders(config) && config.decider().servesApi() ? ApiSecurity.of(config.decider())
        : null;
    PublicSeriesFilter.restrict(registry, config.metrics());
    Properties properties = StreamsSettings.of(config, registry);
    Topics topicNames = new Topics(config.topics(), config.output().outputFormat());
    PublishedReleases published;
    try {
      published = PublishedReleases.read(TopicProvisioner.adminSettings(config.kafka()), topicNames.releases().name(),
          RELEASES_SCAN_TIMEOUT);
    } catch (RuntimeException e) {
      failures.report("the start-up read of " + topicNames.releases().name(), e);
      throw e;
    }
    // Every configured model's plan stays chosen: a model reloaded from the store never calibrates it again.
    PrefixSumPlan.keepAtMost(Math.max(PLANS_AT_LEAST, config.models().size()));
    NoiseContext noise = new NoiseContext(keys, published, new RefusedStates(), new BoundKeys());
    noise.bound().register(registry, keys);
    LOG.info("noise keys by check value: {}", keys.describe());
    List<KafkaStreams> instances = new ArrayList<>();
    TopologyMetrics metrics = TopologyMetrics.of(config, registry);
    if (config.bandits().isEmpty()) {
      instances.add(new KafkaStreams(topology(config, noise, metrics), properties));
    } else {
      for (LearningRole role : LearningRole.values()) {
        instances.add(new KafkaStreams(topology(config, noise, metrics),
            StreamsSettings.forRole(properties, role, config)));
      }
    }
    KafkaStreamsStatus status = new KafkaStreamsStatus(instances);
    List<KafkaClientMetrics> streamsMetrics = new ArrayList<>();
    for (KafkaStreams streams : instances) {
      streams.setUncaughtExceptionHandler(exception -> {
        status.recordThreadFailure(Instant.now());
        if (failures.report("Kafka Streams", exception)) {
          return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        }
        LOG.error("stream thread failed; replacing it", exception);
        return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
      });
      streamsMetrics.add(KafkaClientMetrics.bind(streams, registry));
    }
    instances.forEach(KafkaStreams::start);
    BanditDeciders deciders;
    try {
      deciders = hasDeciders(config)
          ? BanditDeciders.start(config, topicNames, keys.primary(),
              new org.dpstream.service.decide.DeciderMetrics(registry), apiSecurity, failures)
          : null;
    } catch (RuntimeException e) {
      failures.report("the deciders", e);
      closeAll(instances, streamsMetrics);
      throw e;
    }
    DpstreamService service = new DpstreamService(instances, streamsMetrics, status, deciders, noise);
    // /ready as a metric, so an alert rule (deploy/prometheus/alerts.yml) sees what a probe sees.
    HealthCheck health = service.health();
    Gauge.builder("dpstream.ready", () -> health.readiness().ok() ? 1 : 0)
        .description("1 when /ready answers 200: every stream thread running and polling, none failed lately,"
            + " the deciders (if any) caught up with the releases")
        .register(registry);
    return service;
  }

  private static boolean hasDeciders(ServiceConfig config) {
    return !config.bandits().isEmpty() && !config.decider().inTopology();
  }

  /**
   * The service's one topology: the continual release and, when bandits are configured, the bandit
   * sub-topology next to it. They share no topic as input, so they are separate sub-topologies with separate tasks.
   * With bandits, two Kafka Streams instances run this topology under the one application id (one consumer group),
   * the models' and the bandits', and {@link RoleTaskAssignor} gives each its own tasks: each has its own stream
   * thread, consumer and exactly-once producer, so a bandit's learning never waits behind a model's backlog
   * (docs/bandit-decider.md, "Learning under load"). Without bandits the topology is exactly the continual release,
   * which reads no bandit topic, on one instance.
   */
  public static Topology topology(ServiceConfig config, KeyedNoiseSource noise, MeterRegistry registry) {
    return topology(config, NoiseContext.of(noise), registry);
  }

  /** {@link #topology(ServiceConfig, KeyedNoiseSource, MeterRegistry)} with a key ring and the published record. */
  static Topology topology(ServiceConfig config, NoiseContext noise, MeterRegistry registry) {
    return topology(config, noise, TopologyMetrics.of(config, registry));
  }

  private static Topology topology(ServiceConfig config, NoiseContext noise, TopologyMetrics metrics) {
    Topics topics = new Topics(config.topics(), config.output().outputFormat());
    StreamsBuilder builder = new StreamsBuilder();
    ContinualReleaseTopology.addTo(builder, config.registry(), topics, config.routingPartitions(), noise,
        metrics.models(), config.liveModelsPerTask());
    BanditRegistry bandits = config.banditRegistry();
    if (!bandits.isEmpty()) {
      BanditTopology.addTo(builder, bandits, topics, config.routingPartitions(), noise, metrics.bandits(),
          hasDeciders(config) ? BanditTopology.Deciding.BY_DECIDERS : BanditTopology.Deciding.IN_TOPOLOGY);
    }
    return builder.build();
  }

  /**
   * The metrics the topology's processors report to, made once: both instances' topologies report to the same
   * objects, since a registry keeps the first gauge registered under a name and tags.
   */
  private record TopologyMetrics(MicrometerModelMetrics models, MicrometerBanditMetrics bandits) {

    static TopologyMetrics of(ServiceConfig config, MeterRegistry registry) {
      return new TopologyMetrics(new MicrometerModelMetrics(registry, config.modelsWithSeries()::contains),
          config.bandits().isEmpty() ? null : new MicrometerBanditMetrics(registry));
    }
  }

  /**
   * Liveness and readiness of this service, for /health and /ready: not ready while a model's or bandit's state is
   * refused (each named with its code).
   */
  public HealthCheck health() {
    HealthCheck streamsHealth =
        new HealthCheck(status).alsoRequiring("no state refused", noise.refused()::readinessProblems);
    return deciders == null ? streamsHealth
        : streamsHealth.alsoRequiring("deciders caught up and running", deciders::readinessProblems);
  }

  /** The state of the service's Kafka Streams: RUNNING when every instance is, otherwise the worst one's. */
  public KafkaStreams.State state() {
    return status.state();
  }

  /** The ids of the tasks this instance runs as active (e.g. {@code 1_3}: routing partition 3 of the models). */
  public java.util.Set<String> activeTasks() {
    return instances.stream().flatMap(streams -> streams.metadataForLocalThreads().stream())
        .flatMap(thread -> thread.activeTasks().stream())
        .map(task -> task.taskId().toString())
        .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
  }

  /** Waits until the service is running (all tasks assigned and restored) or the timeout passes. */
  public boolean awaitRunning(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (state() != KafkaStreams.State.RUNNING) {
      if (System.nanoTime() > deadline || state() == KafkaStreams.State.ERROR
          || state() == KafkaStreams.State.NOT_RUNNING) {
        return false;
      }
      Thread.sleep(50);
    }
    return true;
  }

  /** This instance's deciders (the HTTP API and the Kafka path), if the bandits are decided by deciders. */
  public java.util.Optional<BanditDeciders> deciders() {
    return java.util.Optional.ofNullable(deciders);
  }

  @Override
  public void close() {
    if (deciders != null) {
      deciders.close();
    }
    closeAll(instances, streamsMetrics);
  }

  private static void closeAll(List<KafkaStreams> instances, List<KafkaClientMetrics> metrics) {
    instances.forEach(streams -> streams.close(Duration.ofSeconds(30)));
    metrics.forEach(KafkaClientMetrics::close);
  }
}
