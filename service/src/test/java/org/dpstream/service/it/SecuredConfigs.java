package org.dpstream.service.it;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
        List.of(bandit), null, null, creation, null, DeciderConfig.deciders(httpPort, true));
  }
}
