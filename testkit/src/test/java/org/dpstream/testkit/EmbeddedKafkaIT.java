package org.dpstream.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A real broker: start, create topics, exactly-once round trip, bounded shutdown. */
@Timeout(120)
class EmbeddedKafkaIT {

  private static final String TOPIC = "it.transactional";
  private static final int RECORDS = 100;
  private static final int READINESS_ROUNDS = 5;
  private static final int READINESS_PARTITIONS = 4;

  @Test
  void transactionalRecordsRoundTripAndTheBrokerClosesWithinItsTimeout() throws Exception {
    Path logDirectory;
    long startedAt = System.nanoTime();
    try (EmbeddedKafka kafka = EmbeddedKafka.builder().shutdownTimeout(Duration.ofSeconds(20)).start()) {
      System.out.printf("embedded broker started in %d ms%n", (System.nanoTime() - startedAt) / 1_000_000);
      logDirectory = logDirectoryOf(kafka);
      kafka.createTopics(new NewTopic(TOPIC, 2, (short) 1),
          new NewTopic("it.control", 1, (short) 1)
              .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)));
      assertEquals(TopicConfig.CLEANUP_POLICY_COMPACT, cleanupPolicy(kafka, "it.control"));

      produceInOneTransaction(kafka, RECORDS);
      produceAbortedTransaction(kafka);
      List<ConsumerRecord<String, String>> consumed = consumeCommitted(kafka, RECORDS);

      assertEquals(RECORDS, consumed.size());
      Set<String> values = Set.copyOf(consumed.stream().map(ConsumerRecord::value).toList());
      assertEquals(Set.copyOf(IntStream.range(0, RECORDS).mapToObj(i -> "value-" + i).toList()), values);

      long closingAt = System.nanoTime();
      assertTimeoutPreemptively(Duration.ofSeconds(25), kafka::close);
      System.out.printf("embedded broker closed in %d ms%n", (System.nanoTime() - closingAt) / 1_000_000);
    }
    assertFalse(Files.exists(logDirectory), "log directory deleted on close");
  }

  /**
   * createTopics promises that the next produce succeeds. A producer without retries shows it: a
   * partition the broker's metadata already lists but whose leader is not yet serving it answers
   * NOT_LEADER_OR_FOLLOWER, which fails such a send at once instead of being retried.
   */
  @Test
  void everyPartitionTakesWritesAsSoonAsCreateTopicsReturns() throws Exception {
    Map<String, Object> config = new HashMap<>();
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false); // idempotence requires retries
    config.put(ProducerConfig.RETRIES_CONFIG, 0);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      config.putAll(kafka.clientConfig());
      try (KafkaProducer<String, String> producer =
          new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
        for (int round = 0; round < READINESS_ROUNDS; round++) {
          String topic = "it.fresh-" + round;
          kafka.createTopics(new NewTopic(topic, READINESS_PARTITIONS, (short) 1));
          List<Future<RecordMetadata>> sends = new ArrayList<>();
          for (int partition = 0; partition < READINESS_PARTITIONS; partition++) {
            sends.add(producer.send(new ProducerRecord<>(topic, partition, "key", "value")));
          }
          for (int partition = 0; partition < READINESS_PARTITIONS; partition++) {
            assertNull(failureOf(sends.get(partition)), topic + "-" + partition + " refused its first write");
          }
        }
      }
    }
  }

  /** Why the send failed, or null if it was acknowledged. */
  private static Throwable failureOf(Future<RecordMetadata> send) throws Exception {
    try {
      send.get(30, TimeUnit.SECONDS);
      return null;
    } catch (ExecutionException e) {
      return e.getCause();
    }
  }

  private static void produceInOneTransaction(EmbeddedKafka kafka, int count) {
    try (KafkaProducer<String, String> producer = transactionalProducer(kafka, "it-committed")) {
      producer.initTransactions();
      producer.beginTransaction();
      for (int i = 0; i < count; i++) {
        producer.send(new ProducerRecord<>(TOPIC, "key-" + i, "value-" + i));
      }
      producer.commitTransaction();
    }
  }

  /** read_committed must hide these: the consumer would see more than RECORDS values otherwise. */
  private static void produceAbortedTransaction(EmbeddedKafka kafka) {
    try (KafkaProducer<String, String> producer = transactionalProducer(kafka, "it-aborted")) {
      producer.initTransactions();
      producer.beginTransaction();
      for (int i = 0; i < 10; i++) {
        producer.send(new ProducerRecord<>(TOPIC, "key-" + i, "aborted-" + i));
      }
      producer.flush();
      producer.abortTransaction();
    }
  }

  private static KafkaProducer<String, String> transactionalProducer(EmbeddedKafka kafka, String transactionalId) {
    Map<String, Object> config = new HashMap<>(kafka.clientConfig());
    config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
  }

  private static List<ConsumerRecord<String, String>> consumeCommitted(EmbeddedKafka kafka, int expected) {
    Map<String, Object> config = new HashMap<>(kafka.clientConfig());
    config.put(ConsumerConfig.GROUP_ID_CONFIG, "it-reader");
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    List<ConsumerRecord<String, String>> records = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
      consumer.subscribe(List.of(TOPIC));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      // Poll past the expected count for a moment, so records of the aborted transaction would show.
      long quietUntil = Long.MAX_VALUE;
      while (System.nanoTime() < Math.min(deadline, quietUntil)) {
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
        if (records.size() >= expected && quietUntil == Long.MAX_VALUE) {
          quietUntil = System.nanoTime() + Duration.ofMillis(500).toNanos();
        }
      }
    }
    return records;
  }

  private static String cleanupPolicy(EmbeddedKafka kafka, String topic) throws Exception {
    ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    try (Admin admin = kafka.admin()) {
      Config config = admin.describeConfigs(List.of(resource)).all().get().get(resource);
      return config.get(TopicConfig.CLEANUP_POLICY_CONFIG).value();
    }
  }

  private static Path logDirectoryOf(EmbeddedKafka kafka) {
    Path directory = kafka.directory();
    assertTrue(Files.isDirectory(directory));
    return directory;
  }
}
