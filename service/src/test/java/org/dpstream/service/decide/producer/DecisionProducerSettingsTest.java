package org.dpstream.service.decide.producer;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class DecisionProducerSettingsTest {

  private static final Map<String, Object> CLIENT = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1");

  @Test
  void theDecisionLogIsWrittenIdempotentlyWithKafkasLingerAndFailsAfterThirtySeconds() {
    Map<String, Object> settings = DecisionService.producerSettings(CLIENT);
    assertEquals(true, settings.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG));
    assertEquals("all", settings.get(ProducerConfig.ACKS_CONFIG));
    assertEquals(5, settings.get(ProducerConfig.LINGER_MS_CONFIG));
    assertEquals(30_000, settings.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG));
  }

  @Test
  void theDefaultsAreSettingsKafkaAccepts() {
    // KafkaProducer refuses delivery.timeout.ms < linger.ms + request.timeout.ms at construction; it does not
    // connect to the broker to check that.
    assertDoesNotThrow(() -> new KafkaProducer<>(DecisionService.producerSettings(CLIENT), new StringSerializer(),
        new ByteArraySerializer()).close());
  }

  @Test
  void anOperatorsLingerIsKept() {
    Map<String, Object> settings = DecisionService.producerSettings(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1", ProducerConfig.LINGER_MS_CONFIG, 0));
    assertEquals(0, settings.get(ProducerConfig.LINGER_MS_CONFIG));
  }
}
