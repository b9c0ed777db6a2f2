package org.dpstream.service.it;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.DeciderConfig;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.config.TopicCreation;
import org.dpstream.testkit.ClientIdentity;

/**
 * Service configs for a secured broker: {@link ItModels#serviceConfig}'s, connecting as a principal of its own
 * (its SASL/SSL settings under {@code kafka:}, as an operator would write them) and, with a bandit, deciding
 * through the deciders with the HTTP API and the Kafka path, so that every client of the service runs.
 */
final class SecuredConfigs {

  private SecuredConfigs() {}

  static ServiceConfig service(String testName, List<ModelConfig> models, BanditConfig bandit, ClientIdentity identity,
      String stateDir, int httpPort) {
    ServiceConfig plain = ItModels.serviceConfig(testName, models, identity.settings().get("bootstrap.servers"),
        stateDir);
    Map<String, String> kafka = new LinkedHashMap<>(plain.kafka());
    kafka.putAll(identity.settings());
    // The service creates its topics (CREATE is among its ACLs), as many partitions as the harness's readers read.
    TopicCreation creation = new TopicCreation(true, ItModels.SAMPLE_PARTITIONS, null, null);
    return new ServiceConfig(plain.applicationId(), plain.topics(), plain.models(), kafka, plain.metricsPort(),
        List.of(bandit), null, null, creation, null,
        // These ITs are about the Kafka ACLs; the HTTP API's own callers are tested in the decide package.
        DeciderConfig.deciders(httpPort, true).withAuthentication("none", null));
  }

  /**
   * {@code config} with its SASL login moved to a properties file and read through Kafka's FileConfigProvider
   * ({@code ${file:PATH:sasl.jaas.config}}), as docs/security-and-privacy.md advises: the password is not in the
   * config file.
   */
  static ServiceConfig withLoginInFile(ServiceConfig config, Path file) throws IOException {
    Map<String, String> kafka = new LinkedHashMap<>(config.kafka());
    Properties secrets = new Properties();
    secrets.setProperty(JAAS, kafka.remove(JAAS));
    try (OutputStream out = Files.newOutputStream(file)) {
      secrets.store(out, "the service's Kafka login");
    }
    kafka.put("config.providers", "file");
    kafka.put("config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider");
    kafka.put(JAAS, "${file:" + file + ":" + JAAS + "}");
    return new ServiceConfig(config.applicationId(), config.topics(), config.models(), kafka, config.metricsPort(),
        config.bandits(), config.routingPartitions(), config.output(), config.createTopics(), config.instanceId(),
        config.decider());
  }

  private static final String JAAS = "sasl.jaas.config";
}
