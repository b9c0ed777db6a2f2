package org.dpstream.app.decide;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.dpstream.app.bandit.BanditRejection;
import org.dpstream.app.serde.DecodeResult;
import org.dpstream.app.serde.DpSerdes;
import org.dpstream.app.serde.SchemaSerde;
import org.dpstream.app.topology.Rejections;
import org.dpstream.schemas.DecisionRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka path of the decision service: contexts on dp.contexts decided by the {@link DecisionService}
 * outside the learning transaction. At-least-once: a batch's offsets are committed only after every
 * decision of the batch (and every rejection) is acknowledged; after a crash the uncommitted suffix is
 * decided again, and since the decision log restores the decision memory, a replayed request gets the
 * decision it had (sent to dp.decisions again: readers deduplicate by request id). Bad input goes to
 * dp.rejected with its reason; nothing stops the loop. Consumer group {@code <applicationId>-decider}.
 */
public final class ContextDecider implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ContextDecider.class);

  private final Consumer<String, byte[]> consumer;
  private final DecisionService decisions;
  private final String topic;
  private final SchemaSerde<DecisionRequest> requests = DpSerdes.decisionRequest();
  private final Thread thread;
  private volatile boolean closed;

  private ContextDecider(Consumer<String, byte[]> consumer, DecisionService decisions, String topic) {
    this.consumer = consumer;
    this.decisions = decisions;
    this.topic = topic;
    this.thread = new Thread(this::run, "dpstream-context-decider");
    this.thread.setDaemon(true);
  }

  public static ContextDecider start(Map<String, Object> clientConfig, String groupId, String topic,
      DecisionService decisions) {
    Map<String, Object> settings = new HashMap<>(clientConfig);
    settings.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
    settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    ContextDecider decider = new ContextDecider(
        new KafkaConsumer<>(settings, new StringDeserializer(), new ByteArrayDeserializer()), decisions, topic);
    decider.thread.start();
    return decider;
  }

  private void run() {
    try {
      consumer.subscribe(List.of(topic));
      while (!closed) {
        ConsumerRecords<String, byte[]> records = consumer.poll(Duration.ofMillis(100));
        if (records.isEmpty()) {
          continue;
        }
        List<CompletableFuture<?>> writes = new ArrayList<>(records.count());
        for (ConsumerRecord<String, byte[]> record : records) {
          writes.add(decide(record));
        }
        // At-least-once: the offsets move only past records whose outputs are acknowledged.
        CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get(2, TimeUnit.MINUTES);
        consumer.commitAsync();
      }
    } catch (WakeupException e) {
      if (!closed) {
        LOG.error("context decider woken up unexpectedly", e);
      }
    } catch (Exception e) {
      // A write that failed: stop without committing; a restarted service decides the suffix again.
      LOG.error("context decider stopped; uncommitted contexts are decided again on restart", e);
    } finally {
      try {
        consumer.commitSync(Duration.ofSeconds(5));
      } catch (RuntimeException ignored) {
        // Nothing to commit, or the group is gone: the suffix is replayed, which is allowed.
      }
      consumer.close(Duration.ofSeconds(5));
    }
  }

  private CompletableFuture<?> decide(ConsumerRecord<String, byte[]> record) {
    String banditId = record.key();
    try {
      if (banditId == null || banditId.isBlank()) {
        return reject(record, BanditRejection.MISSING_KEY.name(), "a bandit record's key must name its bandit");
      }
      if (decisions.decider().bandit(banditId).isEmpty()) {
        return reject(record, BanditRejection.UNKNOWN_BANDIT.name(), "no bandit '" + banditId + "' is configured");
      }
      DecodeResult<DecisionRequest> decoded = requests.decode(record.value());
      if (decoded instanceof DecodeResult.Rejected<DecisionRequest> rejected) {
        return reject(record, rejected.reason().name(), rejected.message());
      }
      DecisionRequest request = ((DecodeResult.Decoded<DecisionRequest>) decoded).value();
      return decisions.decide(banditId, request.getRequestId(), request.getContext(), record.timestamp(), true)
          .thenApply(decision -> {
            long millis = System.currentTimeMillis() - record.timestamp();
            decisions.metrics().decided(banditId, DeciderMetrics.Path.KAFKA, decision.getPhase(),
                TimeUnit.MILLISECONDS.toNanos(millis));
            return decision;
          });
    } catch (Decider.Refused refused) {
      return reject(record, refused.code(), refused.getMessage());
    } catch (RuntimeException e) {
      return reject(record, BanditRejection.PROCESSING_ERROR.name(), e.getClass().getSimpleName());
    }
  }

  private CompletableFuture<?> reject(ConsumerRecord<String, byte[]> record, String reason, String message) {
    byte[] key = record.key() == null ? null : record.key().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    return decisions.reject(record.key(), Rejections.build(reason, message, key, record.value(), record.topic(),
        record.partition(), record.offset()), record.timestamp());
  }

  public boolean isAlive() {
    return thread.isAlive();
  }

  @Override
  public void close() {
    closed = true;
    consumer.wakeup();
    try {
      thread.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
