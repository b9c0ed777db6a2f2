package org.dpstream.bench.bandite2e;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.dpstream.schemas.DecisionPhase;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.service.decide.http.ApiTokens;
import org.dpstream.service.kafka.TopicNames;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.SchemaSerde;

/**
 * Warms the client's own code before it measures anything. The client's JVM has just started: without this,
 * its first second of sending ran interpreted and was compiled under load, and requests were sent up to 138 ms
 * after their due time at its p99 (HTTP), which the bench counted as the service's latency. The warm-up offers a
 * workload of its own ({@value #REQUESTS} requests, paced, so that the open loop's timer is compiled too) to a
 * stand-in that answers every request with arm 0: over HTTP a {@link StandInApi} in the client's JVM; over Kafka a
 * decider in the client's JVM on scratch topics of the broker ({@value #SCRATCH}*), which the service does not
 * read. The service sees none of it. The broker does: it is warm when the measured load starts, as a production
 * broker would be.
 */
final class ClientWarmUp {

  static final int REQUESTS = 20_000;
  static final double RATE = 10_000;
  static final double KAFKA_RATE = 5_000;
  static final String SCRATCH = "bandit-e2e-client-warm-up.";

  private ClientWarmUp() {}

  /** Runs the warm-up over HTTP with the real run's shape (dimension, arms, connections). */
  static void http(int dimension, int arms, long seed, int connections, int rewardConnections) throws Exception {
    try (StandInApi standIn = StandInApi.start(1)) {
      // A token of the same length as the client's (the stand-in does not check it): the same requests' bytes.
      HttpLoad.run(new Workload(dimension, arms, REQUESTS, ~seed, RATE), standIn.port(), "warm-up",
          ApiTokens.newToken(), connections, rewardConnections);
    }
  }

  /** Runs the warm-up through scratch topics of the broker at {@code bootstrap}, then deletes them. */
  static void kafka(String bootstrap, int dimension, int arms, long seed) throws Exception {
    Map<String, Object> config = Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    Topics scratch = new Topics(new TopicNames(SCRATCH + "samples", SCRATCH + "releases", SCRATCH + "rejected",
        SCRATCH + "contexts", SCRATCH + "decisions", SCRATCH + "rewards", null));
    List<String> used = List.of(scratch.contexts().name(), scratch.decisions().name(), scratch.rewards().name());
    try (Admin admin = Admin.create(config)) {
      admin.createTopics(used.stream().map(name -> new NewTopic(name, 1, (short) 1)).toList()).all().get();
      AtomicBoolean stop = new AtomicBoolean();
      Thread standIn = Workload.started("bandit-e2e-stand-in", () -> decideWithArmZero(config, scratch, stop));
      try {
        KafkaLoad.run(new Workload(dimension, arms, REQUESTS, ~seed, KAFKA_RATE), config, scratch, "warm-up", 0);
      } finally {
        stop.set(true);
        standIn.join();
      }
      admin.deleteTopics(used).all().get();
    }
  }

  /** The Kafka stand-in: every context on the scratch contexts topic decided with arm 0 on the scratch decisions. */
  private static void decideWithArmZero(Map<String, Object> config, Topics scratch, AtomicBoolean stop) {
    SchemaSerde<DecisionRequest> requests = DpSerdes.decisionRequest();
    SchemaSerde<DecisionResponse> decisions = DpSerdes.decisionResponse();
    try (KafkaConsumer<byte[], byte[]> consumer =
            new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
      consumer.assign(List.of(new TopicPartition(scratch.contexts().name(), 0)));
      consumer.seekToBeginning(consumer.assignment());
      while (!stop.get()) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(20))) {
          DecisionResponse decision = DecisionResponse.newBuilder()
              .setRequestId(requests.decodeOrThrow(record.value()).getRequestId()).setArm(0).setModelStep(0)
              .setPhase(DecisionPhase.WARM_UP).build();
          producer.send(new ProducerRecord<>(scratch.decisions().name(), record.key(), decisions.encode(decision)));
        }
      }
    }
  }
}
