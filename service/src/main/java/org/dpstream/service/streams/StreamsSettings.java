package org.dpstream.service.streams;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.kafka.Topics;

/**
 * The Kafka Streams properties of the service: the user's Kafka settings, passed through untouched
 * (bootstrap servers, SASL/SSL, anything), on top of dpstream's defaults.
 *
 * <p>Defaults: exactly-once v2 (a crash between release and commit would otherwise re-release a step
 * whose noise, being keyed, is the same, but also re-count the sample in the state: exactly-once keeps
 * state, offsets and releases in one transaction), and a short commit interval so releases appear
 * promptly. The commit interval may be overridden; the guarantee may not (see {@link #of}).
 * Kafka Streams' processing, deserialization and production exception handlers send a record that fails
 * outside the processors' own guard to dp.rejected ({@link RejectingExceptionHandler}), so no record can
 * kill a stream thread.
 *
 * <p><b>Input in small chunks.</b> The stream thread's consumer hands records out one partition's fetched
 * chunk after another, and the thread polls again only once it has processed what it holds. With
 * Kafka's default chunk (max.partition.fetch.bytes, 1 MiB: thousands of samples, each a learning step)
 * one input partition could hold the thread for seconds while the others waited; the bandits' decision
 * log and rewards, read by the same thread as the models' samples, were then learnt in bursts tens of
 * seconds apart and the deciders decided from a stale step for a whole demo run (docs/bandit-decider.md,
 * "Learning lagged the deciders"). The main consumer's chunk defaults to {@value #INPUT_CHUNK_BYTES}
 * bytes, so the thread turns to every input partition within a fraction of a second; a
 * {@code max.partition.fetch.bytes} in the kafka settings (prefixed or not) replaces it.
 *
 * <p>From dpstream's own keys: {@code instanceId} becomes {@code group.instance.id} (static membership:
 * Kafka Streams gives each stream thread's consumer {@code <instanceId>-<thread index>}), and
 * {@code createTopics.replicationFactor} is the replication of Kafka Streams' internal topics unless
 * {@code kafka.replication.factor} says otherwise.
 */
public final class StreamsSettings {

  /** The main consumer's default max.partition.fetch.bytes (see the class comment). */
  static final int INPUT_CHUNK_BYTES = 32 * 1024;

  private StreamsSettings() {}

  /** The properties without metrics: records failed outside the processors are rejected but not counted. */
  public static Properties of(ServiceConfig config) {
    return of(config, null);
  }

  /** The properties; {@code registry} (nullable) counts the records Kafka Streams' handlers reject. */
  public static Properties of(ServiceConfig config, MeterRegistry registry) {
    Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
    properties.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    properties.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100");
    rejectFailedRecords(properties, new Topics(config.topics(), config.output().outputFormat()), registry);
    properties.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, String.valueOf(config.createTopics().replicationFactor()));
    if (config.instanceId() != null) {
      properties.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, config.instanceId());
    }
    properties.putAll(config.kafka());
    String chunk = StreamsConfig.mainConsumerPrefix(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG);
    if (!properties.containsKey(chunk)
        && !properties.containsKey(StreamsConfig.consumerPrefix(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG))
        && !properties.containsKey(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG)) {
      properties.put(chunk, String.valueOf(INPUT_CHUNK_BYTES));
    }
    if (!properties.containsKey(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG)) {
      throw new IllegalArgumentException("kafka.bootstrap.servers is required in the config file");
    }
    if (!isExactlyOnce(properties)) {
      // At-least-once restores a state that already holds the samples after the last committed offset
      // and then steps them again: a replayed sample would be in two leaves, twice its privacy loss.
      throw new IllegalArgumentException("kafka.processing.guarantee must be exactly_once_v2 (the default), got "
          + properties.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG) + ": after a crash at-least-once learns a"
          + " replayed sample twice, which doubles its privacy loss");
    }
    return properties;
  }

  /**
   * The properties of one role's Kafka Streams instance, from the service's ({@link #of}), when bandits are
   * configured: both roles run the same topology under the same application id, and {@link RoleTaskAssignor} gives
   * each the tasks of its role. The models' instance keeps the service's state directory, client id and static
   * membership id, so their state stays where it was; the bandits' instance gets {@code <state.dir>/bandit-learning}
   * (two Kafka Streams instances cannot share an application's state directory) and {@code -bandits} after the ids,
   * and one stream thread: a bandit round is a few microseconds of work, and its thread's only job is not to wait
   * behind the models'.
   */
  public static Properties forRole(Properties service, LearningRole role, ServiceConfig config) {
    Properties properties = new Properties();
    properties.putAll(service);
    properties.put(StreamsConfig.CLIENT_TAG_PREFIX + LearningRole.TAG, role.label());
    properties.put(StreamsConfig.TASK_ASSIGNOR_CLASS_CONFIG, RoleTaskAssignor.class.getName());
    // Kafka Streams configures the assignor with its main consumer's settings, which keep only the consumer's own
    // keys and those under the main consumer's prefix.
    properties.put(StreamsConfig.mainConsumerPrefix(RoleTaskAssignor.BANDIT_TOPICS_CONFIG),
        String.join(",", new java.util.TreeSet<>(banditSourceTopics(config))));
    if (role == LearningRole.BANDITS) {
      Object stateDir = service.getOrDefault(StreamsConfig.STATE_DIR_CONFIG,
          StreamsConfig.configDef().defaultValues().get(StreamsConfig.STATE_DIR_CONFIG));
      properties.put(StreamsConfig.STATE_DIR_CONFIG, java.nio.file.Path.of(String.valueOf(stateDir))
          .resolve("bandit-learning").toString());
      properties.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, "1");
      suffix(properties, ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, role);
      suffix(properties, StreamsConfig.CLIENT_ID_CONFIG, role);
    }
    return properties;
  }

  /** The topics whose tasks are the bandits': their inputs (either decision path) and their routing topic. */
  static java.util.Set<String> banditSourceTopics(ServiceConfig config) {
    Topics topics = new Topics(config.topics(), config.output().outputFormat());
    return java.util.Set.of(topics.contexts().name(), topics.decided().name(), topics.rewards().name(),
        org.dpstream.service.routing.Routing.topicName(config.applicationId(),
            org.dpstream.service.bandit.BanditTopology.ROUTING));
  }

  private static void suffix(Properties properties, String key, LearningRole role) {
    Object value = properties.get(key);
    if (value != null) {
      properties.put(key, value + "-" + role.label());
    }
  }

  /** Installs {@link RejectingExceptionHandler} as Kafka Streams' processing, deserialization and production handler. */
  public static void rejectFailedRecords(Properties properties, Topics topics, MeterRegistry registry) {
    properties.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, RejectingExceptionHandler.class);
    // Also for global stores (none today); the Kafka 5.0 default, and it silences Streams' warning.
    properties.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
    properties.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, RejectingExceptionHandler.class);
    properties.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, RejectingExceptionHandler.class);
    properties.put(RejectingExceptionHandler.TARGET_CONFIG, new RejectingExceptionHandler.Target(topics.rejected(), registry));
  }

  /**
   * Checks the Kafka Streams settings' values (types, ranges, allowed names) without starting anything
   * or logging them; a bad value throws a {@link org.apache.kafka.common.config.ConfigException} naming the key.
   */
  public static void validate(ServiceConfig config) {
    StreamsConfig.configDef().parse(of(config));
  }

  static boolean isExactlyOnce(Properties properties) {
    return StreamsConfig.EXACTLY_ONCE_V2.equals(properties.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG));
  }
}
