package org.dpstream.bench.bandite2e;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.Reward;
import org.dpstream.service.kafka.CheckedProducer;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.SchemaSerde;

/**
 * The Kafka client of the bandit (both the topology path and the deciders' Kafka path): contexts sent to
 * dp.contexts at their due times (open loop; with no rate, at most {@code window} in flight), decisions read
 * from dp.decisions under read_committed as a downstream consumer would, each answered at once with its
 * reward on dp.rewards. A decision read twice (the Kafka path is at-least-once) counts once.
 */
final class KafkaLoad implements AutoCloseable {

  private static final Duration STALL = Duration.ofSeconds(60);

  private final Topics topics;
  private final CheckedProducer<byte[], byte[]> producer;
  private final KafkaConsumer<String, byte[]> consumer;
  private final List<TopicPartition> partitions;
  private final SchemaSerde<DecisionRequest> requests = DpSerdes.decisionRequest();
  private final SchemaSerde<Reward> rewards = DpSerdes.reward();
  private final SchemaSerde<DecisionResponse> decisions = DpSerdes.decisionResponse();

  /**
   * A client with its producer and consumer connected, for one workload or several in turn (the service's warm-up,
   * then the measured load: the measured one then meets no new connection).
   */
  KafkaLoad(Map<String, Object> clientConfig, Topics topics) {
    this.topics = topics;
    Map<String, Object> consumerConfig = new HashMap<>(clientConfig);
    consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    consumerConfig.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 5);
    producer = CheckedProducer.create(clientConfig, Map.of(ProducerConfig.LINGER_MS_CONFIG, 1),
        new ByteArraySerializer(), new ByteArraySerializer());
    consumer = new KafkaConsumer<>(consumerConfig, new StringDeserializer(), new ByteArrayDeserializer());
    partitions = consumer.partitionsFor(topics.decisions().name()).stream()
        .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
    consumer.assign(partitions);
  }

  /** One workload with a client of its own. */
  static void run(Workload workload, Map<String, Object> clientConfig, Topics topics, String banditId, int window)
      throws Exception {
    try (KafkaLoad load = new KafkaLoad(clientConfig, topics)) {
      load.run(workload, banditId, window);
    }
  }

  /** Offers the workload to a bandit and answers each of its decisions, read from now on, with its reward. */
  void run(Workload workload, String banditId, int window) throws Exception {
    byte[] key = banditId.getBytes(StandardCharsets.UTF_8);
    Semaphore inFlight = new Semaphore(window);
    consumer.seekToEnd(partitions);
    partitions.forEach(consumer::position);
    workload.start();
    Thread sender = Workload.started("bandit-e2e-sender", () -> {
      List<Double> values = new ArrayList<>();
      try {
        for (int i = 0; i < workload.size(); i++) {
          values.clear();
          for (double v : workload.rounds[i].context()) {
            values.add(v);
          }
          byte[] value = requests.encode(
              DecisionRequest.newBuilder().setRequestId(Integer.toString(i)).setContext(values).build());
          if (window > 0) {
            inFlight.acquire();
            workload.due(i);
          } else {
            workload.awaitDue(i);
          }
          producer.send(new ProducerRecord<>(topics.contexts().name(), key, value));
        }
        producer.flush();
      } catch (CheckedProducer.SendFailedException failed) {
        // The reader reports it: producer.throwIfFailed() in its loop.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    long lastProgress = System.nanoTime();
    while (workload.decisions() < workload.size()) {
      var records = consumer.poll(Duration.ofMillis(5));
      long now = System.nanoTime();
      for (ConsumerRecord<String, byte[]> record : records) {
        if (!banditId.equals(record.key())) {
          continue; // another bandit's decision (the service warm-up's)
        }
        DecisionResponse decision = decisions.decodeOrThrow(record.value());
        int i = Integer.parseInt(decision.getRequestId());
        if (!workload.decided(i, decision.getArm(), now)) {
          continue;
        }
        inFlight.release();
        byte[] reward = rewards.encode(Reward.newBuilder().setRequestId(decision.getRequestId())
            .setReward(workload.rounds[i].observedReward(decision.getArm())).build());
        producer.send(new ProducerRecord<>(topics.rewards().name(), key, reward));
        lastProgress = now;
      }
      producer.throwIfFailed();
      if (now - lastProgress > STALL.toNanos()) {
        throw new IllegalStateException("no decision for " + STALL + " after " + workload.decisions() + " of "
            + workload.size());
      }
    }
    sender.join(10_000);
  }

  @Override
  public void close() {
    consumer.close();
    producer.close();
  }
}
