package org.dpstream.service.decide.producer;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.service.bandit.Caller;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.decide.Decider;
import org.dpstream.service.decide.follower.ReleaseFollower;
import org.dpstream.service.decide.follower.ReleasedBandits;
import org.dpstream.service.kafka.Topics;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Kafka path's replays (alwaysResend) against a mock producer: what is written again, and what is kept. */
class DecisionServiceReplayTest {

  private static final Topics TOPICS = Topics.defaults();
  private static final List<Double> CONTEXT = List.of(0.5, -2.0);

  private final BanditRegistry registry = new BanditRegistry(Map.of(
      "offers", new BanditConfig("offers", 2, 3, "logistic", 1.0, "0.1", 5L, 1, 1e-5, 1_000, 1.0, 1.0, "10s", "drop",
          null, 1).toEntry()));
  private final MockProducer<String, byte[]> producer =
      new MockProducer<>(false, null, new StringSerializer(), new ByteArraySerializer());
  private final DecisionService service = service();

  private DecisionService service() {
    ReleasedBandits released = new ReleasedBandits();
    new ReleaseFollower(null, "dp.releases", registry, released);
    return new DecisionService(new Decider(registry, released,
        new KeyedNoiseSource(NoiseKey.ofBytes(new byte[NoiseKey.MINIMUM_BYTES]))), TOPICS, producer, 60_000, 1_000);
  }

  private List<String> topicsSent(int from) {
    return producer.history().subList(from, producer.history().size()).stream().map(ProducerRecord::topic).toList();
  }

  @Test
  void aReplayedDecisionIsResentAloneAndIfThatFailsItsRetryNeverWritesTheLogAgain() throws Exception {
    CompletableFuture<DecisionResponse> first = service.decide("offers", Caller.DEFAULT, "q1", CONTEXT, 1_000, true);
    assertEquals(List.of(TOPICS.decided().name(), TOPICS.decisions().name()), topicsSent(0));
    assertEquals(1, service.pendingWrites());
    assertTrue(producer.completeNext() && producer.completeNext());
    DecisionResponse decided = first.get();
    assertEquals(0, service.pendingWrites(), "acknowledged: the memory keeps no object for it");

    CompletableFuture<DecisionResponse> replay = service.decide("offers", Caller.DEFAULT, "q1", CONTEXT, 2_000, true);
    assertEquals(List.of(TOPICS.decisions().name()), topicsSent(2), "the decision alone, with its first timestamp");
    assertEquals(1_000, producer.history().get(2).timestamp());
    assertTrue(producer.errorNext(new RuntimeException("broker gone")));
    assertTrue(replay.isCompletedExceptionally());
    assertEquals(1, service.pendingWrites(), "the failed resend is kept for the next try");

    CompletableFuture<DecisionResponse> retry = service.decide("offers", Caller.DEFAULT, "q1", CONTEXT, 3_000, false);
    assertEquals(List.of(TOPICS.decisions().name()), topicsSent(3), "the log has the record: not written again");
    ProducerRecord<String, byte[]> resent = producer.history().get(3);
    assertNotNull(resent.value());
    assertTrue(producer.completeNext());
    assertEquals(decided, retry.get());
    assertEquals(0, service.pendingWrites());
    assertEquals(1, service.remembered());
  }
}
