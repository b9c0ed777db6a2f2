package org.dpstream.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The secured broker authenticates every client and authorises nothing without an ACL: a SCRAM user is
 * refused until granted and again once revoked, a wrong password or a plaintext client cannot connect,
 * and a certificate's common name is its principal.
 */
@Timeout(120)
class SecuredEmbeddedKafkaIT {

  private static final String TOPIC = "secured.topic";
  private static EmbeddedKafka kafka;

  @BeforeAll
  static void startBroker() {
    long startedAt = System.nanoTime();
    kafka = EmbeddedKafka.builder().secured().start();
    System.out.printf("secured embedded broker started in %d ms%n", (System.nanoTime() - startedAt) / 1_000_000);
    kafka.createTopics(new NewTopic(TOPIC, 1, (short) 1));
  }

  @AfterAll
  static void stopBroker() {
    kafka.close();
  }

  @Test
  void aScramUserWritesOnlyWhileAnAclAllowsIt() throws Exception {
    assertTrue(kafka.isSecured());
    ClientIdentity writer = kafka.scramUser("writer");
    assertEquals("User:writer", writer.principal());
    assertEquals("SASL_SSL", writer.settings().get("security.protocol"));
    assertInstanceOf(TopicAuthorizationException.class, send(writer), "no ACL, no write");

    List<AclBinding> write = List.of(allow(writer.principal(), AclOperation.WRITE, TOPIC));
    kafka.grant(write);
    assertEquals(null, send(writer));

    kafka.revoke(write);
    assertInstanceOf(TopicAuthorizationException.class, send(writer), "revoked");
  }

  @Test
  void aWrongPasswordAndAPlaintextClientAreRefused() {
    ClientIdentity user = kafka.scramUser("guessed");
    Map<String, Object> wrong = user.clientConfig();
    wrong.put("sasl.jaas.config",
        "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"guessed\" password=\"guess\";");
    ExecutionException refused = assertThrows(ExecutionException.class, () -> clusterId(wrong));
    assertInstanceOf(SaslAuthenticationException.class, refused.getCause());

    Map<String, Object> plaintext = new HashMap<>(Map.of("bootstrap.servers", kafka.bootstrapServers()));
    assertThrows(Exception.class, () -> clusterId(plaintext), "a plaintext client gets nothing");
  }

  @Test
  void aCertificateAuthenticatesAsItsCommonNameAndReadsWhatItIsGranted(@TempDir Path work) throws Exception {
    ClientIdentity reader = kafka.certificateUser("reader");
    assertEquals("User:reader", reader.principal());
    assertEquals("SSL", reader.settings().get("security.protocol"));
    assertFalse(reader.toString().contains(reader.settings().get("ssl.keystore.password")), "no secret in toString");
    assertInstanceOf(TopicAuthorizationException.class, endOffset(reader));

    kafka.grant(List.of(allow(reader.principal(), AclOperation.READ, TOPIC)));
    assertInstanceOf(Long.class, endOffset(reader), "granted");

    // The properties file a Kafka tool reads (--command-config) carries the same settings.
    Path file = reader.writeProperties(work.resolve("reader.properties"));
    Properties properties = new Properties();
    try (var in = Files.newInputStream(file)) {
      properties.load(in);
    }
    assertEquals(reader.settings(), Map.copyOf(new HashMap<>(properties.entrySet().stream()
        .collect(java.util.stream.Collectors.toMap(e -> (String) e.getKey(), e -> (String) e.getValue())))));
  }

  private static AclBinding allow(String principal, AclOperation operation, String topic) {
    return new AclBinding(new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL),
        new AccessControlEntry(principal, "*", operation, AclPermissionType.ALLOW));
  }

  /** Null if the record was acknowledged, otherwise why not. */
  private static Throwable send(ClientIdentity identity) throws InterruptedException {
    Map<String, Object> config = identity.clientConfig();
    config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000);
    config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 15_000);
    config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
      producer.send(new ProducerRecord<>(TOPIC, "key", "value")).get(30, TimeUnit.SECONDS);
      return null;
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (java.util.concurrent.TimeoutException | RuntimeException e) {
      return e;
    }
  }

  /** The topic's end offset as the identity sees it, or the exception that refused it. */
  private static Object endOffset(ClientIdentity identity) {
    Map<String, Object> config = identity.clientConfig();
    config.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000);
    TopicPartition partition = new TopicPartition(TOPIC, 0);
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
      return consumer.endOffsets(List.of(partition), Duration.ofSeconds(15)).get(partition);
    } catch (RuntimeException e) {
      return e;
    }
  }

  private static String clusterId(Map<String, Object> settings) throws Exception {
    settings.put("default.api.timeout.ms", 8_000);
    settings.put("request.timeout.ms", 4_000);
    try (Admin admin = Admin.create(settings)) {
      return admin.describeCluster().clusterId().get(10, TimeUnit.SECONDS);
    }
  }
}
