package org.dpstream.service.dda;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.dpstream.core.distributed.DdaNode;
import org.dpstream.core.distributed.DdaRunSpec;
import org.dpstream.core.distributed.DpDdaPrivacyReport;
import org.dpstream.core.distributed.GossipRound;
import org.dpstream.core.distributed.KeyedGossipSchedule;
import org.dpstream.core.erm.ErmDataset;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.core.state.StateBindingException;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.serde.DpSerdes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one node of Mode 2 to the horizon: load the shard, resume from the latest checkpoint (or start
 * fresh), then round after round broadcast, wait for the neighbours' messages, mix, and commit a checkpoint
 * every k rounds; at the end publish the node's averaged model. Rounds never proceed on missing messages.
 */
final class DdaNodeRunner {

  private static final Logger LOG = LoggerFactory.getLogger(DdaNodeRunner.class);
  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

  private final DdaNodeConfig config;
  private final int nodeId;
  private final NoiseKeyRing keys;

  /**
   * @param keys a fresh node draws under the primary key; a resumed one under the key its checkpoint names (a run has
   *     no epochs: it keeps its key to the end)
   */
  DdaNodeRunner(DdaNodeConfig config, int nodeId, NoiseKeyRing keys) {
    this.config = config;
    this.nodeId = nodeId;
    this.keys = keys;
  }

  /** What the run produced. */
  record Result(ModelRelease release, long resumedFromRound) {}

  Result run() throws IOException {
    DdaRunSpec spec = config.runSpec();
    if (nodeId < 0 || nodeId >= spec.nodeCount()) {
      throw new IllegalArgumentException("--node-id must be in 0.." + (spec.nodeCount() - 1) + ": " + nodeId);
    }
    PrivacyLedger ledger = config.runPrivacy().ledger(); // reserved before any message is sent; refuses past the budget
    DpDdaPrivacyReport report = config.runPrivacy().report();
    ErmDataset shard = ShardLoader.load(Path.of(config.data().shardOf(nodeId)), config.data().format(),
        config.data().dimension(), config.privacy().lipschitz());
    LOG.info("node {} of {}: {} samples; {}; fingerprint {}", nodeId, spec.nodeCount(), shard.size(), spec, spec.fingerprint());
    LOG.info("node {}: privacy of the whole run (active set {}): {}", nodeId, config.privacy().activeSet(), report.describe());
    DdaNodeConfig.Topics topics = config.topics();
    try (Admin admin = Admin.create(new HashMap<>(config.kafka()));
        Producer<String, byte[]> producer = producer();
        Consumer<String, byte[]> consumer = consumer()) {
      DdaTopics.ensure(admin, topics, spec.nodeCount());
      CheckpointStore checkpoints = new CheckpointStore(topics.checkpoints(), spec.runId(), spec.fingerprint(), nodeId, producer);
      Optional<CheckpointStore.Checkpoint> checkpoint = checkpoints.latest(consumer, STARTUP_TIMEOUT);
      KeyedNoiseSource source = checkpoint.isPresent() ? keyOf(spec, checkpoint.get()) : keys.primary();
      DdaNode node = checkpoint.isPresent() ? resume(spec, checkpoint.get(), shard, source)
          : spec.newNode(nodeId, shard, source);
      long resumedFrom = node.nextRound() - 1;
      if (checkpoint.isPresent()) {
        LOG.info("node {}: resuming after round {} from its checkpoint", nodeId, resumedFrom);
      }
      KafkaGossipTransport transport = new KafkaGossipTransport(topics.gossip(), spec.runId(), spec.fingerprint(),
          nodeId, spec.nodeCount(), spec.dimension(), producer, consumer, config.roundTimeoutDuration(),
          checkpoint.map(CheckpointStore.Checkpoint::gossipOffset).orElse(0L), resumedFrom);
      runRounds(spec, node, transport, checkpoints, source);
      ModelRelease release = NodeModelRelease.of(spec, nodeId, node.nextRound() - 1, node.averagedModel(), ledger);
      publish(producer, topics.models(), release);
      LOG.info("node {}: done after {} rounds; model published to {}", nodeId, spec.rounds(), topics.models());
      return new Result(release, resumedFrom);
    }
  }

  /** The key the checkpoint's run draws under; a checkpoint of a key this process does not hold stops the node. */
  private KeyedNoiseSource keyOf(DdaRunSpec spec, CheckpointStore.Checkpoint checkpoint) {
    try {
      return spec.keyOf(checkpoint.state(), keys);
    } catch (StateBindingException e) {
      throw new IllegalStateException(e.getMessage());
    }
  }

  private static DdaNode resume(DdaRunSpec spec, CheckpointStore.Checkpoint checkpoint, ErmDataset shard,
      KeyedNoiseSource source) {
    try {
      return spec.resumeNode(checkpoint.state(), shard, source);
    } catch (StateBindingException e) {
      throw new IllegalStateException(e.getMessage());
    }
  }

  private void runRounds(DdaRunSpec spec, DdaNode node, KafkaGossipTransport transport, CheckpointStore checkpoints,
      KeyedNoiseSource source) {
    KeyedGossipSchedule schedule = spec.schedule(source);
    while (node.nextRound() <= spec.rounds()) {
      long t = node.nextRound();
      GossipRound round = schedule.round(t);
      node.broadcast(round, transport);
      node.mix(round, transport);
      transport.markMixed(t);
      if (t % config.checkpointEvery() == 0 || t == spec.rounds()) {
        checkpoints.write(node.snapshot(), transport.resumeOffset());
      }
      if (config.logEvery() > 0 && t % config.logEvery() == 0) {
        LOG.info("node {}: completed round {} of {}", nodeId, t, spec.rounds());
      }
    }
  }

  private Producer<String, byte[]> producer() {
    Map<String, Object> settings = new HashMap<>(config.kafka());
    settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    settings.put(ProducerConfig.ACKS_CONFIG, "all");
    settings.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    settings.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "dpstream-dda-" + config.runId() + "-node-" + nodeId);
    return new KafkaProducer<>(settings, new StringSerializer(), new ByteArraySerializer());
  }

  private Consumer<String, byte[]> consumer() {
    Map<String, Object> settings = new HashMap<>(config.kafka());
    settings.remove(ConsumerConfig.GROUP_ID_CONFIG); // positions live in the checkpoints, not in a group
    settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    settings.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 20); // rounds wait on single small messages
    settings.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "dpstream-dda-" + config.runId() + "-node-" + nodeId);
    return new KafkaConsumer<>(settings, new StringDeserializer(), new ByteArrayDeserializer());
  }

  private static void publish(Producer<String, byte[]> producer, String topic, ModelRelease release) {
    Acknowledgements.await(producer.send(new ProducerRecord<>(topic, release.getModelId().toString(),
        DpSerdes.modelRelease().encode(release))), "the model to " + topic);
  }
}
