package org.dpstream.service.decide.producer;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.service.bandit.BanditRejection;
import org.dpstream.service.bandit.Caller;
import org.dpstream.service.decide.Decider;
import org.dpstream.service.decide.DeciderMetrics;
import org.dpstream.service.kafka.ClientFailures;
import org.dpstream.service.kafka.PollingThreads;
import org.dpstream.service.serde.DecodeResult;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.SchemaSerde;
import org.dpstream.service.topology.PersonIds;
import org.dpstream.service.topology.Rejections;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka path of the decision service: contexts on dp.contexts decided by the {@link DecisionService}
 * outside the learning transaction. At-least-once: a batch's offsets are committed only after every
 * decision of the batch (and every rejection) and of the batches before it is acknowledged (the next batch
 * is polled and decided meanwhile). After a write that failed, nothing is committed past it and the uncommitted
 * suffix is decided again from the committed offsets, after a pause of {@link #RETRY_PAUSE_MILLIS} ms; after a crash
 * the uncommitted suffix is decided again too, and since the decision log restores the decision memory, a replayed request gets the
 * decision it had (sent to dp.decisions again: readers deduplicate by request id). Bad input goes to
 * dp.rejected with its reason; nothing stops the loop. Consumer group {@code <applicationId>-decider}.
 *
 * <p>A context that names a {@code caller} is that caller's request (the producers of dp.contexts are trusted, under
 * the topic's ACLs, to name callers); one that names none is in the default scope ({@link Caller}).
 */
public final class ContextDecider implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ContextDecider.class);

  private final Consumer<String, byte[]> consumer;
  private final DecisionService decisions;
  private final String topic;
  private final SchemaSerde<DecisionRequest> requests = DpSerdes.decisionRequest();
  private final Thread thread;
  private volatile boolean closed;
  /** Times the loop went back to the committed offsets after a failed write (tests). */
  private volatile long rewinds;
  /** Set once the consumer has joined its group (its first assignment, possibly empty). */
  private volatile boolean joined;
  private final ClientFailures failures;

  private ContextDecider(Consumer<String, byte[]> consumer, DecisionService decisions, String topic,
      ClientFailures failures) {
    this.failures = failures;
    this.consumer = consumer;
    this.decisions = decisions;
    this.topic = topic;
    this.thread = new Thread(this::run, "dpstream-context-decider");
    this.thread.setDaemon(true);
  }

  /** The consumer group of the context deciders of an application: {@code <applicationId>-decider}. */
  public static String groupId(String applicationId) {
    return applicationId + "-decider";
  }

  /** Starts deciding the contexts on {@code topic} in group {@code groupId}; a failure that stops it goes to {@code failures}. */
  public static ContextDecider start(Map<String, Object> clientConfig, String groupId, String topic,
      DecisionService decisions, ClientFailures failures) {
    Map<String, Object> settings = new HashMap<>(clientConfig);
    settings.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
    settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    ContextDecider decider = new ContextDecider(
        new KafkaConsumer<>(settings, new StringDeserializer(), new ByteArrayDeserializer()), decisions, topic,
        failures);
    decider.thread.start();
    return decider;
  }

  /** A polled batch: the offsets to commit once its decisions and rejections are acknowledged. */
  private record Batch(Map<TopicPartition, OffsetAndMetadata> next, CompletableFuture<Void> written, long polledAt) {}

  /** Batches polled, in order, whose offsets are not committed yet (only the poll thread touches it). */
  private final ArrayDeque<Batch> inFlight = new ArrayDeque<>();
  private static final long WRITE_WAIT_NANOS = TimeUnit.MINUTES.toNanos(2);
  private static final int MAX_IN_FLIGHT = 64;
  /** Pause before deciding the uncommitted suffix again after a failed write. */
  static final long RETRY_PAUSE_MILLIS = 1_000;

  private void run() {
    try {
      consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
          // Hand the partitions over with everything acknowledged committed: the next owner replays less.
          drain();
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
          joined = true;
        }
      });
      while (!closed) {
        try {
          pollDecideAndCommit();
        } catch (ExecutionException | TimeoutException e) {
          // A write that failed (or was not acknowledged in time): nothing was committed past it. Decide the
          // uncommitted suffix again, as a restart would (at-least-once; a replayed request gets the same decision),
          // after a pause, instead of leaving the instance unready until someone restarts it.
          LOG.warn("context decider: a write failed ({}); deciding again from the last committed offsets",
              e.toString());
          inFlight.clear();
          Thread.sleep(RETRY_PAUSE_MILLIS);
          rewindToCommitted();
          rewinds++;
        }
      }
    } catch (WakeupException e) {
      if (!closed) {
        LOG.error("context decider woken up unexpectedly", e);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      if (!failures.report("the context decider", e)) {
        LOG.error("context decider stopped; uncommitted contexts are decided again on restart", e);
      }
    } finally {
      try {
        drain();
      } catch (RuntimeException ignored) {
        // A failed write or the group is gone: the uncommitted suffix is replayed, which is allowed.
      }
      consumer.close(Duration.ofSeconds(5));
    }
  }

  /** Polls one batch, decides it (its writes are not awaited) and commits the acknowledged prefix. */
  private void pollDecideAndCommit() throws ExecutionException, TimeoutException, InterruptedException {
    ConsumerRecords<String, byte[]> records = consumer.poll(Duration.ofMillis(inFlight.isEmpty() ? 100 : 5));
    if (!records.isEmpty()) {
      List<CompletableFuture<?>> writes = new ArrayList<>(records.count());
      Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
      for (ConsumerRecord<String, byte[]> record : records) {
        writes.add(decide(record));
        next.put(new TopicPartition(record.topic(), record.partition()), new OffsetAndMetadata(record.offset() + 1));
      }
      // Not waited for here: the next batch is polled and decided while this one's writes are acknowledged
      // (waiting put a round trip to the broker between every two batches).
      inFlight.add(new Batch(next, CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)),
          System.nanoTime()));
    }
    commitAcknowledged(inFlight.size() > MAX_IN_FLIGHT);
  }

  /** Seeks every assigned partition back to its committed offset (its beginning if none was committed). */
  private void rewindToCommitted() {
    Set<TopicPartition> assigned = consumer.assignment();
    Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(assigned);
    for (TopicPartition partition : assigned) {
      OffsetAndMetadata offset = committed.get(partition);
      if (offset == null) {
        consumer.seekToBeginning(List.of(partition));
      } else {
        consumer.seek(partition, offset.offset());
      }
    }
  }

  /**
   * At-least-once: commits the offsets of the longest prefix of batches whose outputs are all acknowledged,
   * never past a batch that is not. Throws if the oldest batch's write failed or waited more than two minutes.
   *
   * @param waitForOldest wait for the oldest batch (too many are in flight)
   */
  private void commitAcknowledged(boolean waitForOldest)
      throws ExecutionException, TimeoutException, InterruptedException {
    Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
    while (!inFlight.isEmpty()) {
      Batch oldest = inFlight.peek();
      if (!oldest.written().isDone()) {
        if (waitForOldest) {
          oldest.written().get(Math.max(1, WRITE_WAIT_NANOS - (System.nanoTime() - oldest.polledAt())),
              TimeUnit.NANOSECONDS);
        } else if (System.nanoTime() - oldest.polledAt() > WRITE_WAIT_NANOS) {
          throw new TimeoutException("decisions not acknowledged within 2 minutes");
        } else {
          break;
        }
      }
      oldest.written().get(); // throws if a write failed: nothing from here on is committed
      commit.putAll(oldest.next());
      inFlight.remove();
      waitForOldest = false;
    }
    if (!commit.isEmpty()) {
      consumer.commitAsync(commit, null);
    }
  }

  /** Waits for every batch in flight (at most two minutes each) and commits what was acknowledged, synchronously. */
  private void drain() {
    Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
    try {
      while (!inFlight.isEmpty()) {
        Batch oldest = inFlight.peek();
        oldest.written().get(Math.max(1, WRITE_WAIT_NANOS - (System.nanoTime() - oldest.polledAt())),
            TimeUnit.NANOSECONDS);
        commit.putAll(oldest.next());
        inFlight.remove();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      LOG.warn("context decider: a decision was not acknowledged ({}); its contexts are decided again", e.toString());
    } finally {
      inFlight.clear();
      if (!commit.isEmpty()) {
        consumer.commitSync(commit, Duration.ofSeconds(5));
      }
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
      Caller caller;
      try {
        caller = Caller.ofRecord(request.getCaller());
      } catch (IllegalArgumentException e) {
        return reject(record, BanditRejection.INVALID_CALLER.name(), e.getMessage());
      }
      String userId = PersonIds.of(decisions.decider().bandit(banditId).orElseThrow().unit(), request.getUserId(),
          record.headers());
      return decisions.decide(banditId, caller, request.getRequestId(), request.getContext(), userId,
              record.timestamp(), true)
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

  /**
   * Whether the consumer has joined its group and been assigned its partitions (none, if other instances
   * hold them all). Until then contexts wait unread, so an instance is not ready before.
   */
  public boolean hasJoined() {
    return joined;
  }

  /** Starts deciding with a given consumer (tests). */
  static ContextDecider start(Consumer<String, byte[]> consumer, String topic, DecisionService decisions) {
    ContextDecider decider = new ContextDecider(consumer, decisions, topic, ClientFailures.NONE);
    decider.thread.start();
    return decider;
  }

  public boolean isAlive() {
    return thread.isAlive();
  }

  /** Times the loop went back to the committed offsets after a failed write. */
  long rewinds() {
    return rewinds;
  }

  @Override
  public void close() {
    closed = true;
    PollingThreads.stop(consumer, thread);
  }
}
