package org.dpstream.service.acl;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.config.TopicCreation;
import org.dpstream.service.dda.DdaNodeConfig;
import org.dpstream.service.decide.producer.ContextDecider;
import org.dpstream.service.decide.producer.DecisionService;
import org.dpstream.service.kafka.TopicNames;
import org.dpstream.service.kafka.TopicSpec;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.streams.TopologyTopics;

/**
 * The ACLs a dpstream role needs on a secured cluster, derived from the code that names its topics and
 * groups: the Kafka Streams topology itself ({@link TopologyTopics}: the topics it reads and writes, its
 * internal topics), the deciders' own catalogue ({@link DecisionService#writtenTopics},
 * {@link ContextDecider#groupId}), the topics {@code run} creates ({@link TopicCreation#specs}) and, for
 * {@code dda-node}, {@link DdaNodeConfig.Topics}. Nothing is broader than a prefix of the application's own
 * names: literal topics and groups, and {@code <applicationId>-} for Kafka Streams' internal topics and
 * transactional ids.
 *
 * <p>Only operations the code performs are listed; DESCRIBE is implied by READ, WRITE and DELETE (Kafka's
 * rule), and no cluster ACL is needed: an idempotent producer is allowed by WRITE on a topic (KIP-679).
 */
public final class RequiredAcls {

  /** The roles whose ACLs are known, as {@code dpstream acls --role} names them. */
  public enum Role {
    /** {@code dpstream run}: Kafka Streams, the deciders and topic creation. */
    SERVICE("service"),
    /** A consumer of the private output only: read dp.releases, nothing else. */
    RELEASES_READER("releases-reader"),
    /** {@code dpstream dda-node}: one node of a DP-DDA run. */
    DDA_NODE("dda-node");

    private final String label;

    Role(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  private final Map<Key, List<String>> reasons = new LinkedHashMap<>();

  private RequiredAcls() {}

  /** The ACLs of {@code dpstream run} with {@code config}. */
  public static RequiredAcls forService(ServiceConfig config) {
    RequiredAcls acls = new RequiredAcls();
    TopicNames names = config.topics();
    Topics topics = new Topics(names);
    String applicationId = config.applicationId();

    TopologyTopics streams = TopologyTopics.of(config);
    for (String topic : streams.reads()) {
      acls.topic(topic, AclOperation.READ, "Kafka Streams reads " + role(names, topic));
    }
    for (String topic : streams.writes()) {
      acls.topic(topic, AclOperation.WRITE, "Kafka Streams writes " + role(names, topic));
    }
    String internal = streams.internalPrefix();
    acls.prefixedTopic(internal, AclOperation.CREATE,
        "Kafka Streams creates its internal topics: the routing topics and the state changelogs");
    acls.prefixedTopic(internal, AclOperation.READ,
        "Kafka Streams reads its routing topics and restores its state from the changelogs");
    acls.prefixedTopic(internal, AclOperation.WRITE, "Kafka Streams writes its routing topics and changelogs");
    for (String routing : streams.repartition()) {
      acls.topic(routing, AclOperation.DELETE,
          "Kafka Streams deletes the routing topic's consumed records, which it keeps without a retention limit");
    }
    acls.add(new ResourcePattern(ResourceType.GROUP, applicationId, PatternType.LITERAL), AclOperation.READ,
        "the consumer group of Kafka Streams, named by the applicationId, whose offsets its transactions commit");
    acls.add(new ResourcePattern(ResourceType.TRANSACTIONAL_ID, internal, PatternType.PREFIXED), AclOperation.WRITE,
        "exactly-once: the transactional producers of Kafka Streams, <applicationId>-<process id>-<thread>");

    acls.topic(names.releases(), AclOperation.READ, "run reads every release once before it starts, without a"
        + " consumer group: a model or bandit whose state was lost or is behind its releases must not resume");
    if (!config.bandits().isEmpty() && !config.decider().inTopology()) {
      acls.topic(names.releases(), AclOperation.READ,
          "the deciders follow every release, without a consumer group, to decide from the released parameters");
      acls.topic(names.decided(), AclOperation.READ,
          "the deciders restore their decision memory from the decision log, without a consumer group");
      for (String topic : DecisionService.writtenTopics(topics)) {
        acls.topic(topic, AclOperation.WRITE, "the deciders write " + role(names, topic));
      }
      if (config.decider().contexts()) {
        acls.topic(names.contexts(), AclOperation.READ, "the context decider reads the contexts: the decisions' Kafka path");
        acls.add(new ResourcePattern(ResourceType.GROUP, ContextDecider.groupId(applicationId), PatternType.LITERAL),
            AclOperation.READ, "the consumer group of the context decider, whose offsets it commits");
      }
    }

    TopicCreation creation = config.createTopics();
    if (creation.enabled()) {
      for (TopicSpec spec : creation.specs(names, !config.bandits().isEmpty())) {
        acls.topic(spec.name(), AclOperation.CREATE, "run creates it when it is missing, as createTopics.enabled says");
      }
    }
    return acls;
  }

  /** The ACLs of a reader of the private output: READ on the releases topic, nothing else. */
  public static RequiredAcls forReleasesReader(TopicNames names) {
    RequiredAcls acls = new RequiredAcls();
    acls.topic(names.releases(), AclOperation.READ,
        "the releases: the private output, the one topic a reader of results needs");
    return acls;
  }

  /** The ACLs of {@code dpstream dda-node} with these topics. */
  public static RequiredAcls forDdaNode(DdaNodeConfig.Topics topics) {
    RequiredAcls acls = new RequiredAcls();
    String created = "every node creates it when it is missing";
    acls.topic(topics.gossip(), AclOperation.CREATE, created);
    acls.topic(topics.gossip(), AclOperation.READ, "each node reads its inbox partition, without a consumer group");
    acls.topic(topics.gossip(), AclOperation.WRITE, "each node sends its round messages to its neighbours' inboxes");
    acls.topic(topics.checkpoints(), AclOperation.CREATE, created);
    acls.topic(topics.checkpoints(), AclOperation.READ, "a restarted node reads its last checkpoint, without a consumer group");
    acls.topic(topics.checkpoints(), AclOperation.WRITE, "each node checkpoints its state");
    acls.topic(topics.models(), AclOperation.CREATE, created);
    acls.topic(topics.models(), AclOperation.WRITE, "each node publishes its final model");
    return acls;
  }

  /** Every ACL, resources in a stable order (topics, groups, transactional ids; literal before prefixed). */
  public List<RequiredAcl> all() {
    List<RequiredAcl> all = new ArrayList<>();
    reasons.forEach((key, why) -> all.add(new RequiredAcl(key.resource(), key.operation(), String.join("; ", why))));
    all.sort(Comparator.comparing((RequiredAcl acl) -> acl.resource().resourceType().ordinal())
        .thenComparing(acl -> acl.resource().patternType() == PatternType.PREFIXED)
        .thenComparing(acl -> acl.resource().name())
        .thenComparing(acl -> acl.operation().ordinal()));
    return all;
  }

  /** Every ACL for {@code principal}, to create with {@code Admin.createAcls}. */
  public List<AclBinding> bindings(String principal) {
    return all().stream().map(acl -> acl.binding(principal)).toList();
  }

  /** The operations needed on the topic {@code name}, from literal and prefixed ACLs. */
  public Set<AclOperation> topicOperations(String name) {
    return operations(ResourceType.TOPIC, name);
  }

  /** The operations needed on the group {@code name}. */
  public Set<AclOperation> groupOperations(String name) {
    return operations(ResourceType.GROUP, name);
  }

  /** The ACLs matching {@code filter}. */
  public List<RequiredAcl> matching(Predicate<RequiredAcl> filter) {
    return all().stream().filter(filter).toList();
  }

  private Set<AclOperation> operations(ResourceType type, String name) {
    Set<AclOperation> operations = new TreeSet<>();
    for (RequiredAcl acl : all()) {
      ResourcePattern pattern = acl.resource();
      if (pattern.resourceType() == type && (pattern.patternType() == PatternType.PREFIXED
          ? name.startsWith(pattern.name()) : name.equals(pattern.name()))) {
        operations.add(acl.operation());
      }
    }
    return operations;
  }

  private void topic(String name, AclOperation operation, String why) {
    add(new ResourcePattern(ResourceType.TOPIC, name, PatternType.LITERAL), operation, why);
  }

  private void prefixedTopic(String prefix, AclOperation operation, String why) {
    add(new ResourcePattern(ResourceType.TOPIC, prefix, PatternType.PREFIXED), operation, why);
  }

  private void add(ResourcePattern resource, AclOperation operation, String why) {
    List<String> known = reasons.computeIfAbsent(new Key(resource, operation), key -> new ArrayList<>());
    if (!known.contains(why)) {
      known.add(why);
    }
  }

  /** What a configured topic holds, for the reasons. */
  private static String role(TopicNames names, String topic) {
    Map<String, String> roles = new LinkedHashMap<>();
    roles.put(names.samples(), "the samples");
    roles.put(names.releases(), "the releases");
    roles.put(names.rejected(), "rejected inputs");
    roles.put(names.contexts(), "the contexts");
    roles.put(names.decisions(), "the decisions");
    roles.put(names.rewards(), "the rewards");
    roles.put(names.decided(), "the decision log");
    return roles.getOrDefault(topic, "topic " + topic);
  }

  private record Key(ResourcePattern resource, AclOperation operation) {}
}
