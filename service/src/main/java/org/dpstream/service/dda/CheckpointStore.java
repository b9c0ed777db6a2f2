package org.dpstream.service.dda;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.dpstream.core.distributed.DdaNodeState;
import org.dpstream.schemas.DdaCheckpoint;
import org.dpstream.service.serde.DecodeResult;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.SchemaSerde;

/**
 * A node's committed state on the compacted checkpoint topic, key = run id/node-i: the {@link DdaNodeState}
 * after some round and the gossip offset to resume from. Writes are synchronous (acknowledged by all in-sync
 * replicas), so a checkpoint that {@link #write} returned from survives the node.
 *
 * <p>Checkpoints need not be atomic with the gossip: every message is a function of the state and the key,
 * so a node resumed from an older checkpoint recomputes and resends bit-identical messages, which its
 * neighbours drop as duplicates.
 */
final class CheckpointStore {

  private static final Duration POLL = Duration.ofMillis(200);

  /** A node's restored position. */
  record Checkpoint(DdaNodeState state, long gossipOffset) {}

  private final String topic;
  private final String runId;
  private final String fingerprint;
  private final int node;
  private final Producer<String, byte[]> producer;
  private final SchemaSerde<DdaCheckpoint> serde = DpSerdes.ddaCheckpoint();

  CheckpointStore(String topic, String runId, String fingerprint, int node, Producer<String, byte[]> producer) {
    this.topic = topic;
    this.runId = runId;
    this.fingerprint = fingerprint;
    this.node = node;
    this.producer = producer;
  }

  String key() {
    return runId + "/node-" + node;
  }

  /**
   * The node's latest checkpoint, read from the start of its key's partition to the end as of now.
   *
   * @throws IllegalStateException if the latest one was written under another configuration
   */
  Optional<Checkpoint> latest(Consumer<String, byte[]> consumer, Duration timeout) {
    List<PartitionInfo> partitions = consumer.partitionsFor(topic, timeout);
    if (partitions == null || partitions.isEmpty()) {
      throw new IllegalStateException("checkpoint topic " + topic + " does not exist");
    }
    // Read every partition: compaction keeps one record per key, and which partition holds our key depends
    // on the producer's partitioner, which this reader does not assume.
    List<TopicPartition> all = partitions.stream().map(p -> new TopicPartition(topic, p.partition())).toList();
    consumer.assign(all);
    consumer.seekToBeginning(all);
    Map<TopicPartition, Long> end = consumer.endOffsets(all, timeout);
    DdaCheckpoint latest = null;
    long deadline = System.nanoTime() + timeout.toNanos();
    while (all.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("could not read checkpoint topic " + topic + " within " + timeout);
      }
      for (ConsumerRecord<String, byte[]> record : consumer.poll(POLL)) {
        if (!key().equals(record.key()) || record.value() == null) {
          continue;
        }
        if (serde.decode(record.value()) instanceof DecodeResult.Decoded<DdaCheckpoint> decoded) {
          latest = decoded.value();
        } else {
          throw new IllegalStateException("checkpoint of " + key() + " at " + record.topic() + "-"
              + record.partition() + "@" + record.offset() + " cannot be decoded");
        }
      }
    }
    consumer.unsubscribe();
    if (latest == null) {
      return Optional.empty();
    }
    if (!latest.getFingerprint().toString().equals(fingerprint)) {
      throw new IllegalStateException("the checkpoint of " + key() + " was written under another configuration"
          + " (fingerprint " + latest.getFingerprint() + ", now " + fingerprint + "); a changed run needs a new runId");
    }
    DdaNodeState state = DdaNodeState.fromBytes(toArray(latest.getState()));
    if (state.nodeId() != node) {
      throw new IllegalStateException("checkpoint under key " + key() + " holds node " + state.nodeId());
    }
    return Optional.of(new Checkpoint(state, latest.getGossipOffset()));
  }

  /** Writes the checkpoint and waits for the acknowledgement. */
  void write(DdaNodeState state, long gossipOffset) {
    DdaCheckpoint checkpoint = DdaCheckpoint.newBuilder().setRunId(runId).setFingerprint(fingerprint).setNode(node)
        .setState(ByteBuffer.wrap(state.toBytes())).setGossipOffset(gossipOffset).build();
    Acknowledgements.await(producer.send(new ProducerRecord<>(topic, key(), serde.encode(checkpoint))),
        "the checkpoint of " + key() + " after round " + state.completedRounds());
  }

  private static byte[] toArray(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }
}
