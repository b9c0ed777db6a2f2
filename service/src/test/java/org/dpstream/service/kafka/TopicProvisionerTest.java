package org.dpstream.service.kafka;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The admin client's settings taken from the service's {@code kafka:} map. */
class TopicProvisionerTest {

  @Test
  void adminSettingsKeepTheAdminsKeysItsOverridesAndTheConfigProviders() {
    Map<String, Object> settings = TopicProvisioner.adminSettings(Map.of(
        "bootstrap.servers", "kafka:9093",
        "security.protocol", "SASL_SSL",
        "sasl.jaas.config", "${file:/run/secrets/kafka.properties:sasl.jaas.config}",
        "config.providers", "file",
        "config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider",
        "admin.request.timeout.ms", "5000",
        "commit.interval.ms", "100",
        "state.dir", "/var/lib/dpstream"));
    assertEquals(Map.of(
        "bootstrap.servers", "kafka:9093",
        "security.protocol", "SASL_SSL",
        "sasl.jaas.config", "${file:/run/secrets/kafka.properties:sasl.jaas.config}",
        "config.providers", "file",
        "config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider",
        "request.timeout.ms", "5000"), settings);
  }

  /**
   * The admin client resolves a value from the file, as Kafka Streams does, so a secret need not be in the config
   * file; without the provider's class (as the settings were filtered before) the placeholder stays and is refused.
   */
  @Test
  void aValueInAFileIsResolvedByTheConfigProvider(@TempDir Path work) throws Exception {
    Path secrets = Files.writeString(work.resolve("kafka.properties"), "bootstrap=127.0.0.1:1\n");
    Map<String, Object> settings = TopicProvisioner.adminSettings(Map.of(
        "bootstrap.servers", "${file:" + secrets + ":bootstrap}",
        "config.providers", "file",
        "config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider"));
    assertDoesNotThrow(() -> Admin.create(settings).close(Duration.ZERO));
    Map<String, Object> withoutProvider = new HashMap<>(settings);
    withoutProvider.remove("config.providers.file.class");
    assertThrows(KafkaException.class, () -> Admin.create(withoutProvider).close(Duration.ZERO));
  }
}
