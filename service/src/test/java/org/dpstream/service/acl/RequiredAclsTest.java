package org.dpstream.service.acl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.dpstream.service.config.ConfigLoader;
import org.dpstream.service.config.DeciderConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.config.TopicCreation;
import org.dpstream.service.dda.DdaNodeConfig;
import org.dpstream.service.decide.producer.DecisionService;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.streams.TopologyTopics;
import org.dpstream.service.testing.RepositoryFiles;
import org.junit.jupiter.api.Test;

/** The ACL lists of each role: exactly what the code uses, nothing broader than the application's own names. */
class RequiredAclsTest {

  /** The annotated example config: models, a bandit, deciders with the API and the Kafka path, topic creation. */
  private static final ServiceConfig EXAMPLE = ConfigLoader.load(RepositoryFiles.root().resolve("config/dpstream.yaml"));

  @Test
  void theExampleServiceNeedsExactlyTheseAcls() {
    assertEquals(List.of(
        "TOPIC LITERAL dp.contexts READ", "TOPIC LITERAL dp.contexts CREATE",
        "TOPIC LITERAL dp.contexts.decided READ", "TOPIC LITERAL dp.contexts.decided WRITE",
        "TOPIC LITERAL dp.contexts.decided CREATE",
        "TOPIC LITERAL dp.decisions WRITE", "TOPIC LITERAL dp.decisions CREATE",
        "TOPIC LITERAL dp.rejected WRITE", "TOPIC LITERAL dp.rejected CREATE",
        "TOPIC LITERAL dp.releases READ", "TOPIC LITERAL dp.releases WRITE", "TOPIC LITERAL dp.releases CREATE",
        "TOPIC LITERAL dp.rewards READ", "TOPIC LITERAL dp.rewards WRITE", "TOPIC LITERAL dp.rewards CREATE",
        "TOPIC LITERAL dp.samples READ", "TOPIC LITERAL dp.samples CREATE",
        "TOPIC LITERAL dpstream-bandit-routing-repartition DELETE",
        "TOPIC LITERAL dpstream-model-routing-repartition DELETE",
        "TOPIC PREFIXED dpstream- READ", "TOPIC PREFIXED dpstream- WRITE", "TOPIC PREFIXED dpstream- CREATE",
        "GROUP LITERAL dpstream READ", "GROUP LITERAL dpstream-decider READ",
        "TRANSACTIONAL_ID PREFIXED dpstream- WRITE"), lines(RequiredAcls.forService(EXAMPLE)));
  }

  /**
   * Every topic the topology reads or writes, every internal topic Kafka Streams names for it, every topic the
   * deciders write and every topic run creates has its ACL: a topic the service gains is covered or fails here.
   */
  @Test
  void everyTopicTheCodeUsesIsCovered() {
    RequiredAcls acls = RequiredAcls.forService(EXAMPLE);
    TopologyTopics streams = TopologyTopics.of(EXAMPLE);
    streams.reads().forEach(topic -> assertTrue(acls.topicOperations(topic).contains(AclOperation.READ), topic));
    streams.writes().forEach(topic -> assertTrue(acls.topicOperations(topic).contains(AclOperation.WRITE), topic));
    assertEquals(Set.of("dpstream-model-routing-repartition", "dpstream-model-state-changelog",
        "dpstream-bandit-routing-repartition", "dpstream-bandit-state-changelog", "dpstream-bandit-pending-changelog",
        "dpstream-bandit-clock-changelog"), streams.internal());
    for (String topic : streams.internal()) {
      assertTrue(acls.topicOperations(topic).containsAll(Set.of(AclOperation.CREATE, AclOperation.READ,
          AclOperation.WRITE)), topic);
      assertEquals(topic.endsWith("-repartition"), acls.topicOperations(topic).contains(AclOperation.DELETE), topic);
    }
    DecisionService.writtenTopics(new Topics(EXAMPLE.topics()))
        .forEach(topic -> assertTrue(acls.topicOperations(topic).contains(AclOperation.WRITE), topic));
    EXAMPLE.createTopics().specs(EXAMPLE.topics(), true)
        .forEach(spec -> assertTrue(acls.topicOperations(spec.name()).contains(AclOperation.CREATE), spec.name()));
  }

  @Test
  void nothingIsBroaderThanTheApplicationsOwnNames() {
    for (ServiceConfig config : List.of(EXAMPLE, EXAMPLE.withDecider(DeciderConfig.decidingInTopology()),
        EXAMPLE.withBandits(List.of()))) {
      for (RequiredAcl acl : RequiredAcls.forService(config).all()) {
        assertFalse(acl.resource().name().isEmpty() || acl.resource().name().equals("*"), acl.toString());
        assertFalse(Set.of(AclOperation.ALL, AclOperation.DESCRIBE, AclOperation.ALTER, AclOperation.ALTER_CONFIGS,
            AclOperation.CLUSTER_ACTION, AclOperation.IDEMPOTENT_WRITE).contains(acl.operation()), acl.toString());
        assertTrue(Set.of(ResourceType.TOPIC, ResourceType.GROUP, ResourceType.TRANSACTIONAL_ID)
            .contains(acl.resource().resourceType()), "no cluster ACL: " + acl);
        if (acl.resource().patternType() == PatternType.PREFIXED) {
          assertEquals("dpstream-", acl.resource().name(), "prefixed only by the applicationId: " + acl);
        }
      }
    }
  }

  @Test
  void decidingInTheTopologyNeedsNoDecidersAclsAndReadsTheContexts() {
    List<String> lines = lines(RequiredAcls.forService(EXAMPLE.withDecider(DeciderConfig.decidingInTopology())));
    assertTrue(lines.contains("TOPIC LITERAL dp.contexts READ") && lines.contains("TOPIC LITERAL dp.decisions WRITE"));
    assertFalse(lines.contains("GROUP LITERAL dpstream-decider READ"));
    assertTrue(lines.contains("TOPIC LITERAL dp.releases READ"), "run reads the releases before it starts");
    assertFalse(lines.contains("TOPIC LITERAL dp.rewards WRITE"), "only the deciders write rewards");
  }

  @Test
  void withoutBanditsOrTopicCreationOnlyTheModelsTopicsRemain() {
    ServiceConfig config = new ServiceConfig(EXAMPLE.applicationId(), EXAMPLE.topics(), EXAMPLE.models(),
        EXAMPLE.kafka(), 0, List.of(), null, null, new TopicCreation(false, null, null, null), null);
    assertEquals(List.of("TOPIC LITERAL dp.rejected WRITE", "TOPIC LITERAL dp.releases READ",
        "TOPIC LITERAL dp.releases WRITE",
        "TOPIC LITERAL dp.samples READ", "TOPIC LITERAL dpstream-model-routing-repartition DELETE",
        "TOPIC PREFIXED dpstream- READ", "TOPIC PREFIXED dpstream- WRITE", "TOPIC PREFIXED dpstream- CREATE",
        "GROUP LITERAL dpstream READ", "TRANSACTIONAL_ID PREFIXED dpstream- WRITE"),
        lines(RequiredAcls.forService(config)));
  }

  @Test
  void aReleasesReaderReadsTheReleasesAndNothingElse() {
    assertEquals(List.of("TOPIC LITERAL dp.releases READ"), lines(RequiredAcls.forReleasesReader(EXAMPLE.topics())));
  }

  @Test
  void aDdaNodeCreatesReadsAndWritesItsThreeTopics() {
    DdaNodeConfig config = ConfigLoader.read(RepositoryFiles.root().resolve("config/dda-node.yaml"), DdaNodeConfig.class);
    assertEquals(List.of("TOPIC LITERAL dp.dda.checkpoints READ", "TOPIC LITERAL dp.dda.checkpoints WRITE",
        "TOPIC LITERAL dp.dda.checkpoints CREATE", "TOPIC LITERAL dp.dda.gossip READ",
        "TOPIC LITERAL dp.dda.gossip WRITE", "TOPIC LITERAL dp.dda.gossip CREATE", "TOPIC LITERAL dp.dda.models WRITE",
        "TOPIC LITERAL dp.dda.models CREATE"), lines(RequiredAcls.forDdaNode(config.topics())));
  }

  @Test
  void operationsOnAResourceComeFromLiteralAndPrefixedAcls() {
    RequiredAcls acls = RequiredAcls.forService(EXAMPLE);
    assertEquals(new TreeSet<>(Set.of(AclOperation.READ, AclOperation.WRITE, AclOperation.CREATE, AclOperation.DELETE)),
        acls.topicOperations("dpstream-model-routing-repartition"));
    assertEquals(Set.of(AclOperation.READ), acls.groupOperations("dpstream"));
    assertEquals(Set.of(), acls.topicOperations("dp.unknown"));
    assertEquals(25, acls.bindings("User:dpstream").size());
    assertTrue(acls.bindings("User:dpstream").stream().allMatch(b -> b.entry().principal().equals("User:dpstream")
        && b.entry().host().equals("*")));
  }

  private static List<String> lines(RequiredAcls acls) {
    return acls.all().stream().map(acl -> acl.resource().resourceType() + " " + acl.resource().patternType() + " "
        + acl.resource().name() + " " + acl.operation()).collect(Collectors.toList());
  }
}
