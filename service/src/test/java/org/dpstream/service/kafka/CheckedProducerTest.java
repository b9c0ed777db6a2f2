package org.dpstream.service.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class CheckedProducerTest {

  private static final String TOPIC = "dp.samples";

  @Test
  void tuningCannotWeakenTheDeliveryGuaranteesButMayLengthenTheDeliveryTimeout() {
    Map<String, Object> settings = CheckedProducer.settings(
        Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9092"),
        Map.of(ProducerConfig.ACKS_CONFIG, "1",
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false,
            ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5,
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 300_000,
            ProducerConfig.LINGER_MS_CONFIG, 20));

    assertEquals("all", settings.get(ProducerConfig.ACKS_CONFIG));
    assertEquals(true, settings.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG));
    assertEquals(1, settings.get(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION));
    assertEquals(300_000, settings.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG));
    assertEquals(20, settings.get(ProducerConfig.LINGER_MS_CONFIG));
    assertEquals("127.0.0.1:9092", settings.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG));
    assertEquals((int) CheckedProducer.DELIVERY_TIMEOUT.toMillis(), CheckedProducer.settings(Map.of(), Map.of())
        .get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG));
  }

  @Test
  void acknowledgedRecordsAreCounted() {
    MockProducer<String, String> mock = mock();
    try (CheckedProducer<String, String> producer = new CheckedProducer<>(mock)) {
      producer.send(new ProducerRecord<>(TOPIC, 0, "k", "a"));
      producer.send(new ProducerRecord<>(TOPIC, 0, "k", "b"));
      producer.flush();
      assertEquals(2, producer.acknowledged());
      assertEquals(2, mock.history().size());
    }
  }

  @Test
  void aFailedSendFailsTheFlushWithItsReasonAndStopsFurtherSends() throws Exception {
    MockProducer<String, String> mock = mock();
    try (CheckedProducer<String, String> producer = new CheckedProducer<>(mock)) {
      Future<RecordMetadata> lost = producer.send(new ProducerRecord<>(TOPIC, 0, "k", "a"));
      TimeoutException expired = new TimeoutException("Expiring 1 record(s) for dp.samples-0: 120000 ms has passed");
      mock.errorNext(expired);

      CheckedProducer.SendFailedException failure = assertThrows(CheckedProducer.SendFailedException.class,
          producer::flush);
      assertSame(expired, failure.getCause());
      assertTrue(failure.getMessage().contains("could not write 1 record(s), the first to dp.samples-0"),
          failure.getMessage());
      assertTrue(failure.getMessage().contains("120000 ms has passed"), failure.getMessage());
      assertSame(expired, assertThrows(ExecutionException.class, lost::get).getCause());

      assertThrows(CheckedProducer.SendFailedException.class,
          () -> producer.send(new ProducerRecord<>(TOPIC, 0, "k", "after the gap")));
      assertEquals(1, mock.history().size(), "nothing is sent after a lost record");
      assertEquals(0, producer.acknowledged());
    }
  }

  private static MockProducer<String, String> mock() {
    return new MockProducer<>(false, null, new StringSerializer(), new StringSerializer());
  }
}
