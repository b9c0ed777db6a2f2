package org.dpstream.app.service;

import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.dpstream.app.config.ServiceConfig;

/**
 * The Kafka Streams properties of the service: the user's Kafka settings, passed through untouched
 * (bootstrap servers, SASL/SSL, anything), on top of dpstream's defaults.
 *
 * <p>Defaults: exactly-once v2 (a crash between release and commit would otherwise re-release a step
 * whose noise, being keyed, is the same, but also re-count the sample in the state: exactly-once keeps
 * state, offsets and releases in one transaction), and a short commit interval so releases appear
 * promptly. A user may override either; lowering the guarantee is logged loudly by the service.
 *
 * <p>From dpstream's own keys: {@code instanceId} becomes {@code group.instance.id} (static membership:
 * Kafka Streams gives each stream thread's consumer {@code <instanceId>-<thread index>}), and
 * {@code createTopics.replicationFactor} is the replication of Kafka Streams' internal topics unless
 * {@code kafka.replication.factor} says otherwise.
 */
public final class StreamsSettings {

  private StreamsSettings() {}

  public static Properties of(ServiceConfig config) {
    Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
    properties.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    properties.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100");
    properties.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, String.valueOf(config.createTopics().replicationFactor()));
    if (config.instanceId() != null) {
      properties.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, config.instanceId());
    }
    properties.putAll(config.kafka());
    if (!properties.containsKey(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG)) {
      throw new IllegalArgumentException("kafka.bootstrap.servers is required in the config file");
    }
    return properties;
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
