package org.dpstream.service.dda;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.dpstream.core.distributed.GossipTransport;
import org.dpstream.schemas.DdaGossipMessage;
import org.dpstream.service.serde.DecodeResult;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.SchemaSerde;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link GossipTransport} of Mode 2 for one node: messages go through one Kafka topic whose partition i
 * is node i's inbox. A message to neighbour j is produced to partition j (key = run id/sender); the node
 * reads only its own partition, assigned (no consumer group: its position is part of its checkpoint, see
 * {@link #resumeOffset}).
 *
 * <p><b>Waiting.</b> {@link #receive} blocks until every expected sender's message of the round is there,
 * buffering messages of later rounds (a neighbour that was inactive may run ahead), and fails after the
 * round timeout naming the missing senders. It never proceeds without a message: mixing with a missing
 * term would break double stochasticity, and with it the consensus.
 *
 * <p><b>Replays.</b> A node resumed from a checkpoint recomputes and resends rounds it had already sent;
 * its randomness is keyed, so the copies are bit-identical. Copies of a round already mixed are dropped;
 * a second copy of a pending message must equal the first, otherwise the senders do not run the same
 * computation and the node stops. Messages of another run id are skipped; messages with another
 * configuration fingerprint, or a round, sender or recipient that cannot be, stop the node. Undecodable
 * records are skipped with a warning (a missing message then surfaces as a timeout).
 *
 * <p>Not thread-safe; one per node process.
 */
final class KafkaGossipTransport implements GossipTransport {

  private static final Logger LOG = LoggerFactory.getLogger(KafkaGossipTransport.class);
  private static final Duration POLL = Duration.ofMillis(100);
  private static final Duration WAITING_LOG_INTERVAL = Duration.ofSeconds(10);

  private final String topic;
  private final String runId;
  private final String fingerprint;
  private final int node;
  private final int nodeCount;
  private final int dimension;
  private final Producer<String, byte[]> producer;
  private final Consumer<String, byte[]> consumer;
  private final TopicPartition inbox;
  private final Duration roundTimeout;
  private final SchemaSerde<DdaGossipMessage> serde = DpSerdes.ddaGossipMessage();

  /** Received messages of rounds not mixed yet: round, then sender. */
  private final NavigableMap<Long, Map<Integer, Buffered>> pending = new TreeMap<>();
  /** Every message of a round up to this one is stale. */
  private long mixedUpTo;

  private record Buffered(double[] values, long offset) {}

  /**
   * @param consumer a consumer with no group; this transport assigns it the node's partition
   * @param resumeOffset where to start reading the inbox (0 on a fresh start; a checkpoint's otherwise)
   * @param completedRounds the node's completed rounds: messages of these rounds are stale
   */
  KafkaGossipTransport(String topic, String runId, String fingerprint, int node, int nodeCount, int dimension,
      Producer<String, byte[]> producer, Consumer<String, byte[]> consumer, Duration roundTimeout,
      long resumeOffset, long completedRounds) {
    this.topic = topic;
    this.runId = runId;
    this.fingerprint = fingerprint;
    this.node = node;
    this.nodeCount = nodeCount;
    this.dimension = dimension;
    this.producer = producer;
    this.consumer = consumer;
    this.roundTimeout = roundTimeout;
    this.inbox = new TopicPartition(topic, node);
    this.mixedUpTo = completedRounds;
    consumer.assign(List.of(inbox));
    consumer.seek(inbox, resumeOffset);
  }

  /** The record key of a sender's messages. */
  static String key(String runId, int sender) {
    return runId + "/node-" + sender;
  }

  @Override
  public void send(int fromNode, long round, Set<Integer> recipients, double[] message) {
    for (double v : message) {
      if (!Double.isFinite(v)) {
        throw new IllegalStateException("node " + fromNode + "'s message of round " + round
            + " is not finite; the iterates diverged (check gamma, lambda and sigma)");
      }
    }
    List<Double> values = new ArrayList<>(message.length);
    for (double v : message) {
      values.add(v);
    }
    List<Future<RecordMetadata>> sent = new ArrayList<>(recipients.size());
    for (int recipient : recipients) {
      DdaGossipMessage record = DdaGossipMessage.newBuilder().setRunId(runId).setFingerprint(fingerprint)
          .setRound(round).setSender(fromNode).setRecipient(recipient).setValues(values).build();
      sent.add(producer.send(new ProducerRecord<>(topic, recipient, key(runId, fromNode), serde.encode(record))));
    }
    // Wait for the acks: a round must not count as sent (nor be checkpointed) before its messages are durable.
    producer.flush();
    for (Future<RecordMetadata> future : sent) {
      Acknowledgements.await(future, "node " + fromNode + "'s message of round " + round);
    }
  }

  @Override
  public Map<Integer, double[]> receive(int receiver, long round, Set<Integer> expectedFrom) {
    if (receiver != node) {
      throw new IllegalArgumentException("this transport is node " + node + "'s, not node " + receiver + "'s");
    }
    if (round <= mixedUpTo) {
      throw new IllegalStateException("round " + round + " was already mixed");
    }
    long start = System.nanoTime();
    long nextLog = start + WAITING_LOG_INTERVAL.toNanos();
    while (!arrived(round, expectedFrom)) {
      long now = System.nanoTime();
      if (now - start > roundTimeout.toNanos()) {
        throw new IllegalStateException("node " + node + " waited " + roundTimeout + " for round " + round
            + " from node(s) " + missing(round, expectedFrom) + "; exiting (restart resumes from the last checkpoint)");
      }
      if (now > nextLog) {
        LOG.info("node {} round {}: waiting for node(s) {}", node, round, missing(round, expectedFrom));
        nextLog = now + WAITING_LOG_INTERVAL.toNanos();
      }
      for (ConsumerRecord<String, byte[]> record : consumer.poll(POLL)) {
        accept(record);
      }
    }
    // Null when no neighbour was expected and none wrote: an active node left unmatched in its round.
    Map<Integer, Buffered> messages = pending.remove(round);
    if (messages == null) {
      messages = Map.of();
    }
    Map<Integer, double[]> received = new HashMap<>();
    for (Map.Entry<Integer, Buffered> entry : messages.entrySet()) {
      if (!expectedFrom.contains(entry.getKey())) {
        throw new IllegalStateException("node " + node + " got a message of round " + round + " from node "
            + entry.getKey() + ", which is not its neighbour in that round: the nodes disagree on the schedule"
            + " (same noise key everywhere?)");
      }
      received.put(entry.getKey(), entry.getValue().values());
    }
    markMixed(round);
    return received;
  }

  /** Records that every round up to {@code round} is done (mixed, or skipped while inactive). */
  void markMixed(long round) {
    mixedUpTo = Math.max(mixedUpTo, round);
    pending.headMap(mixedUpTo, true).clear();
  }

  /**
   * Where a node resumed after its completed rounds must start reading: the smallest offset of a buffered
   * message of a later round, or the current position if none is buffered. Everything before it belongs to
   * rounds already mixed.
   */
  long resumeOffset() {
    long offset = consumer.position(inbox);
    for (Map<Integer, Buffered> round : pending.values()) {
      for (Buffered message : round.values()) {
        offset = Math.min(offset, message.offset());
      }
    }
    return offset;
  }

  private boolean arrived(long round, Set<Integer> expectedFrom) {
    Map<Integer, Buffered> messages = pending.get(round);
    return expectedFrom.isEmpty() || (messages != null && messages.keySet().containsAll(expectedFrom));
  }

  private Set<Integer> missing(long round, Set<Integer> expectedFrom) {
    Set<Integer> missing = new TreeSet<>(expectedFrom);
    Map<Integer, Buffered> messages = pending.get(round);
    if (messages != null) {
      missing.removeAll(messages.keySet());
    }
    return missing;
  }

  private void accept(ConsumerRecord<String, byte[]> record) {
    DecodeResult<DdaGossipMessage> decoded = serde.decode(record.value());
    if (decoded instanceof DecodeResult.Rejected<DdaGossipMessage> rejected) {
      LOG.warn("node {}: skipped an undecodable record at {}@{}: {}", node, inbox, record.offset(), rejected.message());
      return;
    }
    DdaGossipMessage message = ((DecodeResult.Decoded<DdaGossipMessage>) decoded).value();
    if (!message.getRunId().toString().equals(runId)) {
      return; // another run sharing the topic
    }
    if (!message.getFingerprint().toString().equals(fingerprint)) {
      throw new IllegalStateException("node " + message.getSender() + " runs " + runId + " with another configuration"
          + " (fingerprint " + message.getFingerprint() + ", ours " + fingerprint + "); all nodes need the same config file");
    }
    int sender = message.getSender();
    if (message.getRecipient() != node || sender < 0 || sender >= nodeCount || sender == node
        || message.getRound() < 1 || message.getValues().size() != dimension) {
      throw new IllegalStateException("malformed gossip at " + inbox + "@" + record.offset() + ": round "
          + message.getRound() + " from " + sender + " to " + message.getRecipient() + " with "
          + message.getValues().size() + " values");
    }
    long round = message.getRound();
    if (round <= mixedUpTo) {
      return; // a resumed neighbour's replay of a round this node has already mixed
    }
    double[] values = message.getValues().stream().mapToDouble(Double::doubleValue).toArray();
    Buffered previous = pending.computeIfAbsent(round, r -> new HashMap<>()).putIfAbsent(sender, new Buffered(values, record.offset()));
    if (previous != null && !Arrays.equals(previous.values(), values)) {
      throw new IllegalStateException("node " + sender + " sent two different messages for round " + round
          + "; its replay after a restart must be bit-identical (same key, same shard?)");
    }
  }
}
