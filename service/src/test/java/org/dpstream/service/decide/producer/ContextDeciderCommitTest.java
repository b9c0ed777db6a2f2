package org.dpstream.service.decide.producer;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.decide.Decider;
import org.dpstream.service.decide.follower.ReleaseFollower;
import org.dpstream.service.decide.follower.ReleasedBandits;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.serde.DpSerdes;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Kafka path decides the next batch while the previous one's writes are acknowledged, and still commits
 * offsets only past acknowledged decisions (at-least-once), never past a write that failed; after a failed write it
 * decides the uncommitted suffix again instead of stopping.
 */
class ContextDeciderCommitTest {

  private static final TopicPartition CONTEXTS = new TopicPartition("dp.contexts", 0);

  private final MockProducer<String, byte[]> producer =
      new MockProducer<>(false, null, new StringSerializer(), new ByteArraySerializer());
  /** The last offset of dp.contexts committed, kept after the consumer is closed. */
  private final AtomicReference<Long> lastCommitted = new AtomicReference<>();
  private final MockConsumer<String, byte[]> consumer = new MockConsumer<>("earliest") {
    @Override
    public synchronized void commitAsync(Map<TopicPartition, OffsetAndMetadata> offsets,
        OffsetCommitCallback callback) {
      record(offsets);
      super.commitAsync(offsets, callback);
    }

    @Override
    public synchronized void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
      record(offsets);
      super.commitSync(offsets, timeout);
    }

    private void record(Map<TopicPartition, OffsetAndMetadata> offsets) {
      if (offsets.containsKey(CONTEXTS)) {
        lastCommitted.set(offsets.get(CONTEXTS).offset());
      }
    }
  };

  private DecisionService decisions() {
    BanditRegistry registry = new BanditRegistry(Map.of("offers", new BanditConfig("offers", 2, 2, "identity", 1.0,
        "0.1", 5L, 1, 1e-5, 1_000, 1.0, 1.0, "10s", "drop", null, 1).toEntry()));
    ReleasedBandits released = new ReleasedBandits();
    new ReleaseFollower(null, "dp.releases", registry, released);
    return new DecisionService(new Decider(registry, released,
        new KeyedNoiseSource(NoiseKey.ofBytes(new byte[NoiseKey.MINIMUM_BYTES]))), Topics.defaults(), producer,
        60_000, 100);
  }

  private static ConsumerRecord<String, byte[]> context(long offset) {
    return context(offset, "r" + offset, null);
  }

  private static ConsumerRecord<String, byte[]> context(long offset, String requestId, String caller) {
    byte[] value = DpSerdes.decisionRequest().encode(DecisionRequest.newBuilder().setRequestId(requestId)
        .setContext(List.of(0.5, -0.5)).setCaller(caller).build());
    return new ConsumerRecord<>(CONTEXTS.topic(), CONTEXTS.partition(), offset, 1_000L + offset,
        TimestampType.CREATE_TIME, 6, value.length, "offers", value, new RecordHeaders(), Optional.empty());
  }

  private Long committed() {
    return lastCommitted.get();
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertTrue(condition.getAsBoolean(), what);
  }

  @Test
  void theNextBatchIsDecidedBeforeTheLastIsAcknowledgedAndOnlyAcknowledgedOffsetsAreCommitted() throws Exception {
    try (ContextDecider decider = ContextDecider.start(consumer, CONTEXTS.topic(), decisions())) {
      consumer.schedulePollTask(() -> {
        consumer.rebalance(List.of(CONTEXTS));
        consumer.updateBeginningOffsets(Map.of(CONTEXTS, 0L));
        consumer.addRecord(context(0));
      });
      await(() -> producer.history().size() == 2, "the first context decided (log record and decision)");
      consumer.schedulePollTask(() -> consumer.addRecord(context(1)));
      await(() -> producer.history().size() == 4, "the second decided while the first is not acknowledged");
      Thread.sleep(100);
      assertNull(committed(), "nothing acknowledged, nothing committed");

      assertTrue(producer.completeNext() && producer.completeNext()); // the first context's two records
      await(() -> Long.valueOf(1).equals(committed()), "committed past the first context once acknowledged");

      assertTrue(producer.errorNext(new RuntimeException("broker gone"))); // the second's log record fails
      assertTrue(producer.completeNext());
      // The loop survives the failed write: after its pause it seeks back to the committed offset and decides the
      // uncommitted context again (the same request, so the same decision, written again), and commits past it once
      // that is acknowledged. The mock hands out a record once, so the broker's copy is added again; it is returned
      // only if the position went back to 1.
      await(() -> decider.rewinds() == 1, "the loop went back to the committed offsets");
      consumer.schedulePollTask(() -> consumer.addRecord(context(1)));
      await(() -> producer.history().size() == 6, "the failed context decided again from the committed offset");
      assertTrue(decider.isAlive(), "a failed write does not stop the loop");
      assertEquals(1L, committed(), "never committed past the failed write");
      assertEquals(producer.history().get(3).key(), producer.history().get(5).key());
      assertTrue(java.util.Arrays.equals(producer.history().get(3).value(), producer.history().get(5).value()),
          "the replayed context's decision is the same bytes");
      assertTrue(producer.completeNext() && producer.completeNext());
      await(() -> Long.valueOf(2).equals(committed()), "committed past it once its second write is acknowledged");
    }
  }

  /**
   * A context that names a caller is that caller's request: the same request id in the default scope and for a caller
   * is decided twice, each decision naming its scope; an empty caller is refused with a reason.
   */
  @Test
  void aContextNamingACallerIsThatCallersRequest() throws Exception {
    try (ContextDecider decider = ContextDecider.start(consumer, CONTEXTS.topic(), decisions())) {
      consumer.schedulePollTask(() -> {
        consumer.rebalance(List.of(CONTEXTS));
        consumer.updateBeginningOffsets(Map.of(CONTEXTS, 0L));
        consumer.addRecord(context(0, "q", null));
        consumer.addRecord(context(1, "q", "alice"));
        consumer.addRecord(context(2, "q", ""));
      });
      await(() -> producer.history().size() == 5, "two requests decided (two records each), one rejected");
      List<String> callers = producer.history().stream().filter(r -> r.topic().equals("dp.decisions"))
          .map(r -> String.valueOf(DpSerdes.decisionResponse().decodeOrThrow(r.value()).getCaller())).toList();
      assertEquals(List.of("null", "alice"), callers);
      assertEquals("INVALID_CALLER", DpSerdes.rejectedRecord().decodeOrThrow(producer.history().get(4).value())
          .getReason());
      assertTrue(decider.isAlive());
    }
  }
}
