package org.dpstream.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dpstream.service.acl.RequiredAcls;
import org.dpstream.service.config.ConfigLoader;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.testing.RepositoryFiles;
import org.junit.jupiter.api.Test;

/**
 * docker-compose.secured.yml without Docker (CI has none): it overrides docker-compose.yml's broker with secured
 * listeners and the authorizer, every file it mounts exists, the service's secured config loads, connects to the
 * SASL_SSL listener with no password in the file and serves the same models, and the ACLs are the command's.
 * ComposeCertificatesIT runs the certificate script itself.
 */
class SecuredDeploymentFilesTest {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private final Path root = RepositoryFiles.root();

  @Test
  void theOverrideSecuresTheBrokerAndMountsOnlyFilesThatExist() throws IOException {
    JsonNode base = YAML.readTree(root.resolve("docker-compose.yml").toFile()).get("services");
    JsonNode services = YAML.readTree(root.resolve("docker-compose.secured.yml").toFile()).get("services");
    for (String service : List.of("kafka", "kafka-init", "dpstream")) {
      assertTrue(base.has(service), "overrides a service of docker-compose.yml: " + service);
    }
    for (JsonNode service : services) {
      for (JsonNode volume : service.path("volumes")) {
        String source = volume.asText().split(":")[0];
        assertTrue(!source.startsWith("./") || Files.exists(root.resolve(source)), "mounted " + source);
      }
    }
    Map<String, String> broker = environment(services.get("kafka"));
    assertEquals("CLIENT:SASL_SSL,HOST:SASL_SSL,INTERNAL:SSL,CONTROLLER:SSL",
        broker.get("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP"), "no plaintext listener");
    assertEquals("org.apache.kafka.metadata.authorizer.StandardAuthorizer", broker.get("KAFKA_AUTHORIZER_CLASS_NAME"));
    assertEquals("false", broker.get("KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND"));
    assertEquals("User:kafka;User:admin", broker.get("KAFKA_SUPER_USERS"), "the service is no super user");
    assertEquals("required", broker.get("KAFKA_LISTENER_NAME_INTERNAL_SSL_CLIENT_AUTH"));
    assertEquals("required", broker.get("KAFKA_LISTENER_NAME_CONTROLLER_SSL_CLIENT_AUTH"));
    String script = services.get("kafka-certs").get("entrypoint").toString();
    assertTrue(script.contains("/scripts/generate-certificates.sh"), script);
    assertTrue(Files.isExecutable(root.resolve("deploy/security/generate-certificates.sh")));
  }

  @Test
  void theSecuredServiceConfigConnectsAsItsOwnPrincipalWithoutAPasswordInTheFile() throws IOException {
    ServiceConfig secured = ConfigLoader.load(root.resolve("deploy/dpstream-secured.yaml"));
    ServiceConfig plain = ConfigLoader.load(root.resolve("deploy/dpstream.yaml"));
    assertEquals(plain.models(), secured.models(), "the same models as docker-compose.yml");
    assertEquals(plain.applicationId(), secured.applicationId());
    Map<String, String> kafka = secured.kafka();
    assertEquals("kafka:9092", kafka.get("bootstrap.servers"), "the CLIENT listener");
    assertEquals("SASL_SSL", kafka.get("security.protocol"));
    assertEquals("SCRAM-SHA-512", kafka.get("sasl.mechanism"));
    for (String secret : List.of("sasl.jaas.config", "ssl.truststore.password")) {
      assertTrue(kafka.get(secret).startsWith("${file:/etc/kafka/secrets/"), secret + " comes from the generated file");
    }
    assertFalse(secured.createTopics().enabled(), "kafka-init creates the topics as the administrator");
  }

  /** What dpstream-acls creates is the command's list: the service's and the reader's roles, nothing by hand. */
  @Test
  void theAclsAreCreatedByTheCommandForBothPrincipals() throws IOException {
    JsonNode acls = YAML.readTree(root.resolve("docker-compose.secured.yml").toFile()).get("services")
        .get("dpstream-acls");
    String command = acls.get("command").get(0).asText();
    assertTrue(command.contains("acls --config /config/dpstream.yaml --apply"), command);
    assertTrue(command.contains("--principal User:dpstream --role service"), command);
    assertTrue(command.contains("--principal User:reader --role releases-reader"), command);
    assertTrue(acls.get("volumes").toString().contains("./deploy/dpstream-secured.yaml:/config/dpstream.yaml"));
    ServiceConfig secured = ConfigLoader.load(root.resolve("deploy/dpstream-secured.yaml"));
    assertTrue(RequiredAcls.forService(secured).all().stream()
        .noneMatch(acl -> acl.operation() == org.apache.kafka.common.acl.AclOperation.CREATE
            && !acl.prefixed()), "no CREATE on the topics kafka-init made");
  }

  private static Map<String, String> environment(JsonNode service) {
    Map<String, String> environment = new HashMap<>();
    service.get("environment").fields().forEachRemaining(e -> environment.put(e.getKey(), e.getValue().asText()));
    return environment;
  }
}
