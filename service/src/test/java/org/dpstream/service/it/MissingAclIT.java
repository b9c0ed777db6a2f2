package org.dpstream.service.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;
import org.dpstream.service.acl.RequiredAcl;
import org.dpstream.service.acl.RequiredAcls;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.testkit.ClientIdentity;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every ACL {@code dpstream acls} lists is needed, and a missing one is said: with all the service's ACLs but
 * one, {@code dpstream run} (models and a bandit with both decision paths, so that every client runs) exits
 * with code 1 and one line naming the resource and the operation, instead of hanging, looping or crashing.
 * Most are found by the access check before anything starts; the transactional ids and the internal topics
 * of a first start by Kafka Streams' own refusal or by the check that follows their creation. An ACL revoked while the service
 * runs stops it the same way, through the client that meets the refusal.
 */
class MissingAclIT {

  private static final String TEMPLATE = "template";
  private static final BanditConfig BANDIT = new BanditConfig("guarded-bandit", 5, 2, "identity", 1.0, "inf", 10L,
      1, 1e-5, 5_000, 1.0, 1.0, "5m", "drop", null, 1);
  private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(120);
  private static final String DENIED = "run: access denied: ";

  @RegisterExtension
  static final KafkaHarness kafka = KafkaHarness.securedPerClass();

  /** Each ACL of the service's list, by its position and a label with the template's names. */
  static Stream<Arguments> everyAcl() {
    List<RequiredAcl> acls = acls(config(TEMPLATE,
        new ClientIdentity("User:" + TEMPLATE, Map.of("bootstrap.servers", "127.0.0.1:9")), "state", 0));
    return IntStream.range(0, acls.size()).mapToObj(i -> Arguments.of(i, label(acls.get(i))));
  }

  @ParameterizedTest(name = "without {1}")
  @MethodSource("everyAcl")
  @Timeout(180)
  void runStopsWithOneLineNamingTheMissingAcl(int index, String label, @TempDir Path work) throws Exception {
    String name = "missing-" + index;
    ClientIdentity principal = kafka.broker().scramUser("service-" + index);
    ServiceConfig config = config(name, principal, work.resolve("state").toString(), freePort());
    List<RequiredAcl> granted = new ArrayList<>(acls(config));
    RequiredAcl missing = granted.remove(index);
    assertEquals(label, label(missing).replace(name, TEMPLATE), "the case's ACL list matches the template's");
    kafka.broker().grant(granted.stream().map(acl -> acl.binding(principal.principal())).toList());

    Path log = work.resolve("run.log");
    long started = System.nanoTime();
    int exitCode;
    try (ServiceProcess service = ServiceProcess.start(ConfigFiles.write(config, work.resolve("service.yaml")), log)) {
      exitCode = service.awaitExit(EXIT_TIMEOUT);
    }
    List<String> denied = Files.readAllLines(log, StandardCharsets.UTF_8).stream()
        .filter(line -> line.startsWith(DENIED)).toList();
    System.out.printf("without %s: exit code %d after %.1f s: %s%n", label(missing), exitCode,
        (System.nanoTime() - started) / 1e9, denied);
    String tail = String.join("\n", Files.readAllLines(log, StandardCharsets.UTF_8));
    assertEquals(1, exitCode, tail);
    assertEquals(1, denied.size(), "one line says what is denied:\n" + tail);
    String line = denied.get(0);
    assertTrue(line.contains(operation(missing)) && line.contains(missing.resource().name()),
        "the line names " + label(missing) + ": " + line);
  }

  /** What a running service meets when an ACL is revoked under it, by the client that meets it. */
  static Stream<Arguments> revokedWhileRunning() {
    return Stream.of(
        Arguments.of("the deciders' producer", AclOperation.WRITE, ResourceType.TOPIC, "decided"),
        Arguments.of("Kafka Streams", AclOperation.READ, ResourceType.GROUP, "application"));
  }

  /**
   * An ACL revoked while the service runs: the client that meets the refusal stops the service, which exits with
   * code 1 and one line naming the resource, instead of retrying or replacing its threads forever.
   */
  @ParameterizedTest(name = "{1} on the {3} {2}, met by {0}")
  @MethodSource("revokedWhileRunning")
  @Timeout(180)
  void anAclRevokedWhileRunningStopsTheServiceWithOneLine(String client, AclOperation operation, ResourceType type,
      String which, @TempDir Path work) throws Exception {
    String name = "revoked-" + type.name().toLowerCase(java.util.Locale.ROOT);
    ClientIdentity principal = kafka.broker().scramUser("service-" + name);
    int port = freePort();
    ServiceConfig config = config(name, principal, work.resolve("state").toString(), port);
    String resource = type == ResourceType.GROUP ? config.applicationId() : config.topics().decided();
    List<RequiredAcl> acls = acls(config);
    kafka.broker().grant(acls.stream().map(acl -> acl.binding(principal.principal())).toList());
    Path log = work.resolve("run.log");
    try (ServiceProcess service = ServiceProcess.start(ConfigFiles.write(config, work.resolve("service.yaml")), log)) {
      DecisionApiClient api = new DecisionApiClient(port, BANDIT.id(), null);
      api.awaitUp(service, EXIT_TIMEOUT);
      kafka.broker().revoke(acls.stream()
          .filter(acl -> acl.operation() == operation && acl.resource().resourceType() == type
              && acl.resource().name().equals(resource))
          .map(acl -> acl.binding(principal.principal())).toList());
      // A decision makes the deciders write; Kafka Streams meets the group on its next commit or heartbeat.
      api.post("/decide", "{\"requestId\":\"after-revoke\",\"context\":[0.1,0.2,0.3,0.4,0.5]}");
      int exitCode = service.awaitExit(EXIT_TIMEOUT);
      List<String> denied = Files.readAllLines(log, StandardCharsets.UTF_8).stream()
          .filter(line -> line.startsWith(DENIED)).toList();
      System.out.printf("%s revoked while running: exit code %d: %s%n", operation, exitCode, denied);
      assertEquals(1, exitCode, service.logTail());
      assertEquals(1, denied.size(), service.logTail());
      assertTrue(denied.get(0).startsWith(DENIED + client + ": ") && denied.get(0).contains(resource), denied.get(0));
    }
  }

  private static ServiceConfig config(String name, ClientIdentity principal, String stateDir, int port) {
    return SecuredConfigs.service(name, ItModels.models(1), BANDIT, principal, stateDir, port);
  }

  private static List<RequiredAcl> acls(ServiceConfig config) {
    return RequiredAcls.forService(config).all();
  }

  private static String label(RequiredAcl acl) {
    return operation(acl) + " on " + acl.resource().resourceType().name().toLowerCase(java.util.Locale.ROOT)
        + (acl.prefixed() ? " prefixed " : " ") + acl.resource().name();
  }

  /** As the line spells it (kafka-acls' names): Read, Write, Create, Delete. */
  private static String operation(RequiredAcl acl) {
    String name = acl.operation().name();
    return name.charAt(0) + name.substring(1).toLowerCase(java.util.Locale.ROOT);
  }

  private static int freePort() throws IOException {
    try (ServerSocket free = new ServerSocket(0)) {
      return free.getLocalPort();
    }
  }
}
