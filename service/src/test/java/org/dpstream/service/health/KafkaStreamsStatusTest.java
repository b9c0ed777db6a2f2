package org.dpstream.service.health;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.apache.kafka.streams.KafkaStreams.State;
import org.junit.jupiter.api.Test;

/** The service's state over its Kafka Streams instances (the models' and the bandits'). */
class KafkaStreamsStatusTest {

  @Test
  void runningOnlyWhenEveryInstanceRunsOtherwiseTheWorstState() {
    assertEquals(State.RUNNING, KafkaStreamsStatus.combined(List.of(State.RUNNING, State.RUNNING)));
    assertEquals(State.REBALANCING, KafkaStreamsStatus.combined(List.of(State.RUNNING, State.REBALANCING)));
    assertEquals(State.REBALANCING, KafkaStreamsStatus.combined(List.of(State.CREATED, State.REBALANCING)));
    assertEquals(State.ERROR, KafkaStreamsStatus.combined(List.of(State.ERROR, State.REBALANCING)));
    assertEquals(State.NOT_RUNNING, KafkaStreamsStatus.combined(List.of(State.RUNNING, State.NOT_RUNNING)));
    assertEquals(State.CREATED, KafkaStreamsStatus.combined(List.of(State.CREATED)));
  }
}
