package org.dpstream.service.consume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.PrivacyLedger;
import org.dpstream.service.kafka.TopicSpec;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.OutputFormat;
import org.dpstream.service.serde.SchemaSerde;
import org.dpstream.service.testing.CommandRun;
import org.dpstream.testkit.EmbeddedKafka;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code dpstream consume} against a real broker: a topic holding a release in Avro, one in JSON, a value
 * that is neither and a tombstone, committed, plus an aborted transaction that must not show.
 */
@Timeout(180)
class ConsumeCommandIT {

  private static final String TOPIC = "it.consume.releases";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final SchemaSerde<ModelRelease> RELEASES = DpSerdes.modelRelease();
  private static final ModelRelease AVRO_RELEASE = release("lr-p1.5", 1, 0.5);
  private static final ModelRelease JSON_RELEASE = release("lr-pinf", 2, Double.POSITIVE_INFINITY);

  private static EmbeddedKafka kafka;
  /** The lines consume must print for the committed records, in any order across partitions. */
  private static Set<String> expectedLines;
  private static RecordMetadata garbage;

  @BeforeAll
  static void writeRecords() {
    kafka = EmbeddedKafka.start();
    kafka.createTopics(TopicSpec.of(TOPIC, 2).newTopic());
    try (KafkaProducer<byte[], byte[]> producer = transactionalProducer("it-consume")) {
      producer.initTransactions();
      producer.beginTransaction();
      RecordMetadata avro = send(producer, 0, "lr-p1.5", RELEASES.serialize(TOPIC, AVRO_RELEASE));
      RecordMetadata json = send(producer, 1, "lr-pinf",
          RELEASES.writing(OutputFormat.JSON).serialize(TOPIC, JSON_RELEASE));
      garbage = send(producer, 0, "lr-p2", "not json".getBytes(StandardCharsets.UTF_8));
      RecordMetadata tombstone = send(producer, 1, null, null);
      producer.commitTransaction();
      expectedLines = new TreeSet<>(List.of(
          "{\"key\":\"lr-p1.5\",\"partition\":0,\"offset\":" + avro.offset() + ",\"value\":"
              + RELEASES.toJson(AVRO_RELEASE) + "}",
          "{\"key\":\"lr-pinf\",\"partition\":1,\"offset\":" + json.offset() + ",\"value\":"
              + RELEASES.toJson(JSON_RELEASE) + "}",
          "{\"key\":null,\"partition\":1,\"offset\":" + tombstone.offset() + ",\"value\":null}"));
    }
    try (KafkaProducer<byte[], byte[]> producer = transactionalProducer("it-consume-aborted")) {
      producer.initTransactions();
      producer.beginTransaction();
      send(producer, 0, "aborted", RELEASES.serialize(TOPIC, release("aborted", 3, 1.0)));
      producer.abortTransaction();
    }
  }

  @AfterAll
  static void stopBroker() {
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void printsEveryCommittedRecordAsOneJsonLineWhateverItsFormat() throws Exception {
    CommandRun run = consume("--bootstrap-server", kafka.bootstrapServers(), "--topic", TOPIC, "--from-beginning",
        "--timeout", "3s");
    assertEquals(0, run.exitCode(), run.err());
    assertEquals(4, run.outLines().size(), run.out());
    List<String> readable = new ArrayList<>();
    JsonNode unreadable = null;
    for (String line : run.outLines()) {
      JsonNode node = JSON.readTree(line);
      if (node.has("valueError")) {
        unreadable = node;
      } else {
        readable.add(line);
      }
    }
    assertEquals(expectedLines, new TreeSet<>(readable));
    assertTrue(unreadable != null && unreadable.get("value").isNull(), run.out());
    assertEquals("lr-p2", unreadable.get("key").asText());
    assertEquals(garbage.offset(), unreadable.get("offset").asLong());
    assertEquals("not json", unreadable.get("valueText").asText());
    assertTrue(run.errLines().contains("consume: 4 record(s) from " + TOPIC), run.err());
  }

  @Test
  void stopsAfterMaxMessagesWithoutWaitingForTheTimeout() {
    long startedAt = System.nanoTime();
    CommandRun run = consume("--bootstrap-server", kafka.bootstrapServers(), "--topic", TOPIC, "--from-beginning",
        "--max-messages", "2", "--timeout", "10m");
    assertEquals(0, run.exitCode(), run.err());
    assertEquals(2, run.outLines().size(), run.out());
    assertTrue(System.nanoTime() - startedAt < 120_000_000_000L, "did not wait for --timeout");
  }

  @Test
  void withoutFromBeginningOnlyNewRecordsShow() {
    CommandRun run = consume("--bootstrap-server", kafka.bootstrapServers(), "--topic", TOPIC, "--timeout", "2s");
    assertEquals(0, run.exitCode(), run.err());
    assertEquals(List.of(), run.outLines());
  }

  @Test
  void errorsAreOneLineAndExitCodeTwo() throws Exception {
    CommandRun unknownTopic = consume("--bootstrap-server", kafka.bootstrapServers(), "--topic", "it.no-such-topic",
        "--timeout", "5s");
    assertEquals(2, unknownTopic.exitCode());
    assertEquals(List.of("consume: topic it.no-such-topic does not exist at " + kafka.bootstrapServers()
        + " (--topic)"), unknownTopic.errLines());

    String nobody = "127.0.0.1:" + freePort();
    CommandRun unreachable = consume("--bootstrap-server", nobody, "--topic", TOPIC, "--timeout", "2s");
    assertEquals(2, unreachable.exitCode());
    assertEquals(List.of("consume: no answer from Kafka at " + nobody + " within 2s (--bootstrap-server)"),
        unreachable.errLines());

    CommandRun badCount =
        consume("--bootstrap-server", kafka.bootstrapServers(), "--topic", TOPIC, "--max-messages", "0");
    assertEquals(2, badCount.exitCode());
    assertEquals(List.of("consume: --max-messages must be at least 1, got 0"), badCount.errLines());
  }

  private static CommandRun consume(String... args) {
    return CommandRun.serviceCommand("consume", args);
  }

  private static RecordMetadata send(KafkaProducer<byte[], byte[]> producer, int partition, String key, byte[] value) {
    try {
      return producer.send(new ProducerRecord<>(TOPIC, partition,
          key == null ? null : key.getBytes(StandardCharsets.UTF_8), value)).get();
    } catch (Exception e) {
      throw new IllegalStateException("producing to " + TOPIC + " failed", e);
    }
  }

  private static KafkaProducer<byte[], byte[]> transactionalProducer(String transactionalId) {
    Map<String, Object> config = new HashMap<>(kafka.clientConfig());
    config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
  }

  private static ModelRelease release(String modelId, long step, double p) {
    return new ModelRelease(modelId, step, 0L, List.of(0.1 * step, -0.2, 1e-300), "dp-tofw", p,
        new PrivacyLedger(1.0, 1e-5, "zcdp", 1000L, 0L, 0.01 * step, 1e-5, null, null, null, null, null));
  }

  private static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
