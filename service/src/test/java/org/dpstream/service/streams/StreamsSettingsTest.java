package org.dpstream.service.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.config.TopicCreation;
import org.junit.jupiter.api.Test;

class StreamsSettingsTest {

  private static ServiceConfig config(Map<String, String> kafka, TopicCreation creation, String instanceId) {
    return new ServiceConfig("app", null, List.of(), kafka, 0, List.of(), null, null, creation, instanceId);
  }

  @Test
  void theInstanceIdBecomesOneStaticMemberPerStreamThread() {
    Properties properties = StreamsSettings.of(config(Map.of("bootstrap.servers", "b:9092",
        StreamsConfig.NUM_STREAM_THREADS_CONFIG, "2"), null, "host-a"));
    assertEquals("host-a", properties.get(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG));
    // What Kafka Streams gives each thread's main consumer: the id with the thread's index appended.
    StreamsConfig streams = new StreamsConfig(properties);
    assertEquals("host-a-1", streams.getMainConsumerConfigs("app", "c1", 1).get(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG));
    assertEquals("host-a-2", streams.getMainConsumerConfigs("app", "c2", 2).get(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG));
  }

  @Test
  void theStreamThreadTakesItsInputInSmallChunksUnlessTheKafkaSettingsSayOtherwise() {
    StreamsConfig defaults = new StreamsConfig(StreamsSettings.of(config(Map.of("bootstrap.servers", "b:9092"), null, null)));
    assertEquals("32768", String.valueOf(defaults.getMainConsumerConfigs("app", "c", 1).get(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG)));
    // Kafka's own default (1 MiB) held the thread on one partition for seconds: the deciders' learning lag.
    assertTrue(StreamsSettings.INPUT_CHUNK_BYTES < ConsumerConfig.DEFAULT_MAX_PARTITION_FETCH_BYTES / 8);
    for (String key : List.of("max.partition.fetch.bytes", "consumer.max.partition.fetch.bytes",
        "main.consumer.max.partition.fetch.bytes")) {
      StreamsConfig set = new StreamsConfig(StreamsSettings.of(config(Map.of("bootstrap.servers", "b:9092", key, "500000"),
          null, null)));
      assertEquals("500000", String.valueOf(set.getMainConsumerConfigs("app", "c", 1).get(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG)),
          key);
    }
  }

  @Test
  void withoutAnInstanceIdMembershipIsDynamic() {
    Properties properties = StreamsSettings.of(config(Map.of("bootstrap.servers", "b:9092"), null, null));
    assertFalse(properties.containsKey(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG));
  }

  @Test
  void internalTopicsGetTheCreatedTopicsReplicationUnlessKafkaSettingsSayOtherwise() {
    TopicCreation threeReplicas = new TopicCreation(null, null, 3, null);
    assertEquals("3", StreamsSettings.of(config(Map.of("bootstrap.servers", "b:9092"), threeReplicas, null))
        .get(StreamsConfig.REPLICATION_FACTOR_CONFIG));
    assertEquals("2", StreamsSettings.of(config(Map.of("bootstrap.servers", "b:9092",
        StreamsConfig.REPLICATION_FACTOR_CONFIG, "2"), threeReplicas, null)).get(StreamsConfig.REPLICATION_FACTOR_CONFIG));
    assertEquals("-1", StreamsSettings.of(config(Map.of("bootstrap.servers", "b:9092"), null, null))
        .get(StreamsConfig.REPLICATION_FACTOR_CONFIG), "the broker's default");
  }

  @Test
  void anyGuaranteeButExactlyOnceIsRefusedNamingTheKey() {
    for (String guarantee : new String[] {"at_least_once", "exactly_once"}) {
      IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
          () -> StreamsSettings.of(config(Map.of("bootstrap.servers", "b:9092", "processing.guarantee", guarantee),
              null, null)));
      assertEquals(true, e.getMessage().startsWith("kafka.processing.guarantee must be exactly_once_v2"), e.getMessage());
    }
    assertEquals("exactly_once_v2", StreamsSettings.of(config(Map.of("bootstrap.servers", "b:9092",
        "processing.guarantee", "exactly_once_v2"), null, null)).get("processing.guarantee"));
  }

  @Test
  void theBanditsInstanceHasItsOwnStateDirectoryIdsAndOneThreadAndBothCarryTheirRoleToTheAssignor() {
    ServiceConfig config = config(Map.of("bootstrap.servers", "b:9092", StreamsConfig.STATE_DIR_CONFIG, "/var/dp",
        StreamsConfig.NUM_STREAM_THREADS_CONFIG, "3", StreamsConfig.CLIENT_ID_CONFIG, "svc"), null, "host-a");
    Properties service = StreamsSettings.of(config);
    Properties models = StreamsSettings.forRole(service, LearningRole.MODELS, config);
    Properties bandits = StreamsSettings.forRole(service, LearningRole.BANDITS, config);

    assertEquals("/var/dp", models.get(StreamsConfig.STATE_DIR_CONFIG));
    assertEquals("/var/dp/bandit-learning", bandits.get(StreamsConfig.STATE_DIR_CONFIG));
    assertEquals("3", models.get(StreamsConfig.NUM_STREAM_THREADS_CONFIG));
    assertEquals("1", bandits.get(StreamsConfig.NUM_STREAM_THREADS_CONFIG));
    assertEquals("host-a", models.get(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG));
    assertEquals("host-a-bandits", bandits.get(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG));
    assertEquals("svc", models.get(StreamsConfig.CLIENT_ID_CONFIG));
    assertEquals("svc-bandits", bandits.get(StreamsConfig.CLIENT_ID_CONFIG));
    assertEquals("app", bandits.get(StreamsConfig.APPLICATION_ID_CONFIG), "one application, one consumer group");
    for (Properties role : List.of(models, bandits)) {
      StreamsConfig streams = new StreamsConfig(role);
      assertEquals(RoleTaskAssignor.class.getName(), streams.getString(StreamsConfig.TASK_ASSIGNOR_CLASS_CONFIG));
      // Kafka Streams configures the assignor with the main consumer's settings: the topics must reach them.
      Map<String, Object> consumer = streams.getMainConsumerConfigs("app", "c1", 1);
      assertEquals("app-bandit-routing-repartition,dp.contexts,dp.contexts.decided,dp.rewards",
          consumer.get(RoleTaskAssignor.BANDIT_TOPICS_CONFIG));
    }
    assertEquals(Map.of(LearningRole.TAG, "bandits"), new StreamsConfig(bandits).getClientTags());
    assertEquals(Map.of(LearningRole.TAG, "models"), new StreamsConfig(models).getClientTags());
  }
}
