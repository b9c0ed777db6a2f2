package org.dpstream.service.it;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.service.kafka.CheckedProducer;
import org.dpstream.service.kafka.TopicNames;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.release.BanditStepReleases;
import org.dpstream.service.serde.DecodeResult;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.testkit.EmbeddedKafka;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One embedded broker for a test class, with what every test needs around it: the service's topics
 * under a test's own names, an idempotent producer of raw sample bytes (malformed ones included), and
 * read_committed readers of the output topics.
 */
final class KafkaHarness implements AutoCloseable, BeforeAllCallback, AfterAllCallback {

  /** Longer than the producer's delivery timeout, so a slow broker fails the send, not the wait. */
  private static final long ACK_TIMEOUT_SECONDS = 330;

  private final boolean secured;
  private EmbeddedKafka kafka;
  private CheckedProducer<byte[], byte[]> producer;

  private KafkaHarness(boolean secured) {
    this.secured = secured;
  }

  /**
   * The broker of one test class, as a JUnit extension: {@code @RegisterExtension static final KafkaHarness
   * kafka = KafkaHarness.perClass();} starts it before the class's tests and stops it after them.
   */
  static KafkaHarness perClass() {
    return new KafkaHarness(false);
  }

  /**
   * A secured broker for a test class ({@link EmbeddedKafka.Builder#secured()}): SASL_SSL and mTLS, ACLs
   * enforced. The harness's own producer and readers are the administrator's; the client under test gets a
   * principal of its own ({@link #broker()}{@code .scramUser(...)}) and only the ACLs granted to it.
   */
  static KafkaHarness securedPerClass() {
    return new KafkaHarness(true);
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    startBroker();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    close();
  }

  /**
   * A crashed instance's open transaction is aborted by the broker only after its timeout, checked
   * every 10 s by default; checking every second keeps the fresh-state-dir restart short.
   */
  private void startBroker() {
    EmbeddedKafka.Builder builder = EmbeddedKafka.builder()
        .brokerConfig("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000");
    kafka = (secured ? builder.secured() : builder).start();
    try {
      // Generous timeouts: on a loaded 2-core machine a produce request can take long. The delivery
      // guarantees (idempotent, acks=all, one request in flight) are CheckedProducer's.
      producer = CheckedProducer.create(kafka.clientConfig(), Map.of(
          ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 120_000,
          ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 300_000,
          ProducerConfig.LINGER_MS_CONFIG, 5), new ByteArraySerializer(), new ByteArraySerializer());
    } catch (RuntimeException e) {
      kafka.close();
      kafka = null;
      throw e;
    }
  }

  String bootstrapServers() {
    return kafka.bootstrapServers();
  }

  /** The broker itself (on a secured one: principals, ACLs, the administrator's client settings). */
  EmbeddedKafka broker() {
    return kafka;
  }

  /** Creates every topic of the catalogue under these names, {@link ItModels#SAMPLE_PARTITIONS} partitions each. */
  Topics createTopics(TopicNames names) {
    Topics topics = new Topics(names);
    kafka.createTopics(topics.newTopics(ItModels.SAMPLE_PARTITIONS));
    return topics;
  }

  /** Sends raw records in order (idempotent: no duplicates, per-partition order kept) and waits for the acks. */
  List<RecordMetadata> produce(String topic, List<RawRecord> records) {
    return sendAll(records.stream().map(r -> new ProducerRecord<>(topic, r.key(), r.value())).toList());
  }

  /** Sends records to explicit partitions, in order, and waits for the acks. */
  List<RecordMetadata> produceTo(String topic, List<PartitionedRecord> records) {
    return sendAll(records.stream()
        .map(r -> new ProducerRecord<>(topic, r.partition(), r.key(), r.value())).toList());
  }

  /**
   * Moves the committed offsets of {@code group} on every partition of {@code topic} back to the beginning, as an
   * operator would with {@code kafka-consumer-groups --reset-offsets --to-earliest}, or as a group whose offsets the
   * broker expired would start again ({@code auto.offset.reset=earliest}). The group must have no member.
   */
  void resetGroupToEarliest(String group, String topic, int partitions) {
    Map<TopicPartition, OffsetAndMetadata> earliest = new java.util.HashMap<>();
    for (int p = 0; p < partitions; p++) {
      earliest.put(new TopicPartition(topic, p), new OffsetAndMetadata(0));
    }
    try (Admin admin = kafka.admin()) {
      admin.alterConsumerGroupOffsets(group, earliest).all().get(60, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("could not reset group " + group, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while resetting a group", e);
    }
  }

  /** Grows {@code topic} to {@code total} partitions, as an operator would with kafka-topics --alter. */
  void addPartitions(String topic, int total) {
    try (Admin admin = kafka.admin()) {
      admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(total))).all().get(60, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("could not add partitions to " + topic, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while adding partitions", e);
    }
  }

  /**
   * Sends samples in chunks with a pause between them, as a live stream arrives, counting what was
   * acknowledged in {@code produced}; stops early if the thread is interrupted.
   */
  void produceLive(String topic, List<SampleRow> rows, int chunk, long pauseMillis, AtomicInteger produced) {
    for (int from = 0; from < rows.size(); from += chunk) {
      List<SampleRow> part = rows.subList(from, Math.min(rows.size(), from + chunk));
      produceSamples(topic, part);
      produced.addAndGet(part.size());
      try {
        Thread.sleep(pauseMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Sends valid samples, each keyed by its model id. */
  List<RecordMetadata> produceSamples(String topic, List<SampleRow> rows) {
    return produce(topic, rows.stream().map(row -> new RawRecord(row.key(), row.avro())).toList());
  }

  /** Sends records with explicit timestamps, in order (the bandit tests fix the cross-topic interleaving by them). */
  List<RecordMetadata> produceTimed(List<TimedRecord> records) {
    return sendAll(records.stream()
        .map(r -> new ProducerRecord<>(r.topic(), null, r.timestamp(), r.key(), r.value())).toList());
  }

  /** Sends in order and waits for every acknowledgement; a failed send fails the test with its cause. */
  private List<RecordMetadata> sendAll(List<ProducerRecord<byte[], byte[]>> records) {
    List<Future<RecordMetadata>> sent = new ArrayList<>(records.size());
    for (ProducerRecord<byte[], byte[]> record : records) {
      sent.add(producer.send(record));
    }
    List<RecordMetadata> acknowledged = new ArrayList<>(sent.size());
    try {
      for (Future<RecordMetadata> future : sent) {
        acknowledged.add(future.get(ACK_TIMEOUT_SECONDS, TimeUnit.SECONDS));
      }
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("producing failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while producing", e);
    }
    return acknowledged;
  }

  CommittedTopicReader<DecisionResponse> decisionsReader(Topics topics) {
    return reader(topics.decisions().name(), topics.decisions().valueSerde().deserializer());
  }

  /**
   * dp.releases as per-arm releases: a bandit's step record unfolds into the arms' and extras' releases it carries
   * (each keyed by its model id, where the step record was read), a model's or arm's release is read as it is.
   */
  CommittedTopicReader<ModelRelease> releasesReader(Topics topics) {
    String topic = topics.releases().name();
    var arms = DpSerdes.modelRelease(); // each serde reads Avro and JSON, whatever the service writes
    var steps = DpSerdes.banditStepRelease();
    return new CommittedTopicReader<>(kafka.clientConfig(), topic, ItModels.SAMPLE_PARTITIONS, record -> {
      if (record.value() != null && arms.decode(record.value()) instanceof DecodeResult.Decoded<ModelRelease> arm) {
        return List.of(CommittedTopicReader.withValue(record, record.key(), arm.value()));
      }
      return BanditStepReleases.armReleases(steps.deserialize(topic, record.value())).stream()
          .map(release -> CommittedTopicReader.withValue(record, release.getModelId(), release)).toList();
    });
  }

  CommittedTopicReader<RejectedRecord> rejectedReader(Topics topics) {
    return reader(topics.rejected().name(), topics.rejected().valueSerde().deserializer());
  }

  <V> CommittedTopicReader<V> reader(String topic, Deserializer<V> values) {
    return new CommittedTopicReader<>(kafka.clientConfig(), topic, ItModels.SAMPLE_PARTITIONS, values);
  }

  @Override
  public void close() {
    try {
      if (producer != null) {
        producer.close();
      }
    } finally {
      if (kafka != null) {
        kafka.close();
      }
      producer = null;
      kafka = null;
    }
  }


  /** A record as bytes: what a producer the service does not control may send (null key included). */
  record RawRecord(byte[] key, byte[] value) {}

  /** A record for an explicit partition. */
  record PartitionedRecord(int partition, byte[] key, byte[] value) {}

  /** A record for a given topic with its timestamp. */
  record TimedRecord(String topic, long timestamp, byte[] key, byte[] value) {}
}
