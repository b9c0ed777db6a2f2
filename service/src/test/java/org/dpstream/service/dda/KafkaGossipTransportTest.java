package org.dpstream.service.dda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.dpstream.schemas.DdaGossipMessage;
import org.dpstream.service.serde.DpSerdes;
import org.junit.jupiter.api.Test;

class KafkaGossipTransportTest {

  private static final String TOPIC = "gossip";
  private static final String RUN = "run-a";
  private static final String FINGERPRINT = "f00d";
  private static final int NODE = 1;

  private final MockConsumer<String, byte[]> consumer = new MockConsumer<>("earliest");
  private final MockProducer<String, byte[]> producer =
      new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
  private long nextOffset;

  private KafkaGossipTransport transport(long resumeOffset, long completedRounds, Duration timeout) {
    nextOffset = resumeOffset;
    return new KafkaGossipTransport(TOPIC, RUN, FINGERPRINT, NODE, 4, 2, producer, consumer, timeout, resumeOffset,
        completedRounds);
  }

  private KafkaGossipTransport transport() {
    return transport(0, 0, Duration.ofSeconds(5));
  }

  private void deliver(String runId, String fingerprint, long round, int sender, double... values) {
    DdaGossipMessage message = DdaGossipMessage.newBuilder().setRunId(runId).setFingerprint(fingerprint)
        .setRound(round).setSender(sender).setRecipient(NODE)
        .setValues(java.util.Arrays.stream(values).boxed().toList()).build();
    consumer.addRecord(new ConsumerRecord<>(TOPIC, NODE, nextOffset++, KafkaGossipTransport.key(runId, sender),
        DpSerdes.ddaGossipMessage().encode(message)));
  }

  private void deliver(long round, int sender, double... values) {
    deliver(RUN, FINGERPRINT, round, sender, values);
  }

  @Test
  void sendsOneRecordPerRecipientToTheRecipientsPartition() {
    transport().send(NODE, 7, Set.of(0, 3), new double[] {1.5, -2});
    List<ProducerRecord<String, byte[]>> sent = producer.history();
    assertEquals(2, sent.size());
    for (ProducerRecord<String, byte[]> record : sent) {
      DdaGossipMessage message = DpSerdes.ddaGossipMessage().decodeOrThrow(record.value());
      assertEquals(record.partition(), message.getRecipient(), "partition i is node i's inbox");
      assertEquals(7, message.getRound());
      assertEquals(NODE, message.getSender());
      assertEquals(List.of(1.5, -2.0), message.getValues());
      assertEquals(RUN + "/node-" + NODE, record.key());
    }
    assertEquals(Set.of(0, 3), Set.of(sent.get(0).partition(), sent.get(1).partition()));
  }

  @Test
  void refusesToSendANonFiniteMessage() {
    KafkaGossipTransport transport = transport();
    assertThrows(IllegalStateException.class, () -> transport.send(NODE, 1, Set.of(0), new double[] {Double.NaN, 0}));
    assertTrue(producer.history().isEmpty());
  }

  /** An active node without a partner in its round (two nodes, one sampled) mixes with nothing, and goes on. */
  @Test
  void aRoundWithoutNeighboursReceivesNothing() {
    KafkaGossipTransport transport = transport();
    assertEquals(Map.of(), transport.receive(NODE, 1, Set.of()));
    deliver(2, 0, 5, 6);
    assertArrayEquals(new double[] {5, 6}, transport.receive(NODE, 2, Set.of(0)).get(0));
  }

  @Test
  void waitsForEveryExpectedSenderAndBuffersLaterRounds() {
    KafkaGossipTransport transport = transport();
    deliver(2, 0, 9, 9); // a neighbour already at the next round
    deliver(1, 0, 1, 2);
    deliver(1, 3, 3, 4);
    Map<Integer, double[]> round1 = transport.receive(NODE, 1, Set.of(0, 3));
    assertArrayEquals(new double[] {1, 2}, round1.get(0));
    assertArrayEquals(new double[] {3, 4}, round1.get(3));
    assertEquals(0, transport.resumeOffset(), "the buffered round-2 message at offset 0 must be read again on resume");
    assertArrayEquals(new double[] {9, 9}, transport.receive(NODE, 2, Set.of(0)).get(0));
    assertEquals(3, transport.resumeOffset(), "nothing buffered: resume at the consumer's position");
  }

  @Test
  void dropsIdenticalReplaysAndStaleRoundsButStopsOnAConflictingCopy() {
    KafkaGossipTransport transport = transport();
    deliver(1, 0, 1, 2);
    deliver(1, 0, 1, 2); // a restarted sender's bit-identical replay
    assertArrayEquals(new double[] {1, 2}, transport.receive(NODE, 1, Set.of(0)).get(0));
    deliver(1, 0, 5, 5); // a replay of a round already mixed: stale, whatever it says
    deliver(2, 0, 7, 7);
    assertArrayEquals(new double[] {7, 7}, transport.receive(NODE, 2, Set.of(0)).get(0));
    deliver(3, 0, 1, 1);
    deliver(3, 0, 1, 1.0000000001);
    IllegalStateException conflict = assertThrows(IllegalStateException.class, () -> transport.receive(NODE, 3, Set.of(0)));
    assertTrue(conflict.getMessage().contains("two different messages"), conflict.getMessage());
  }

  @Test
  void skipsOtherRunsAndRefusesAnotherConfiguration() {
    KafkaGossipTransport transport = transport();
    deliver("another-run", "beef", 1, 0, 8, 8);
    deliver(1, 0, 1, 2);
    assertArrayEquals(new double[] {1, 2}, transport.receive(NODE, 1, Set.of(0)).get(0));
    deliver(RUN, "beef", 2, 0, 1, 2);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> transport.receive(NODE, 2, Set.of(0)));
    assertTrue(e.getMessage().contains("another configuration"), e.getMessage());
  }

  @Test
  void aMessageFromANodeThatIsNotANeighbourOfTheRoundStopsTheNode() {
    KafkaGossipTransport transport = transport();
    deliver(1, 0, 1, 2);
    deliver(1, 2, 1, 2);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> transport.receive(NODE, 1, Set.of(0)));
    assertTrue(e.getMessage().contains("not its neighbour"), e.getMessage());
  }

  @Test
  void timesOutNamingTheMissingSenders() {
    KafkaGossipTransport transport = transport(0, 0, Duration.ofMillis(300));
    deliver(1, 0, 1, 2);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> transport.receive(NODE, 1, Set.of(0, 2, 3)));
    assertTrue(e.getMessage().contains("[2, 3]"), e.getMessage());
  }

  @Test
  void aResumedNodeIgnoresMessagesOfItsCompletedRounds() {
    KafkaGossipTransport transport = transport(10, 5, Duration.ofSeconds(5));
    deliver(5, 0, 1, 1); // mixed before the checkpoint
    deliver(6, 0, 2, 2);
    assertArrayEquals(new double[] {2, 2}, transport.receive(NODE, 6, Set.of(0)).get(0));
    assertThrows(IllegalStateException.class, () -> transport.receive(NODE, 5, Set.of(0)), "round 5 is done");
  }
}
