package org.dpstream.service.acl;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Asks the cluster what the service's own principal may do, before anything runs: Kafka answers
 * {@code DescribeTopics} and {@code DescribeGroups} with the caller's authorised operations on each resource,
 * so every missing ACL on a topic or group shows up at once, named, instead of one at a time as the clients
 * meet them. What cannot be asked this way is left to the clients' own errors ({@link AccessFailures}): the
 * transactional ids, and internal topics Kafka Streams has not created yet (checked again once it has).
 */
public final class AccessCheck {

  private static final long TIMEOUT_SECONDS = 30;

  private final RequiredAcls acls;

  public AccessCheck(RequiredAcls acls) {
    this.acls = acls;
  }

  /** The literal topics and groups of the ACLs, and those of {@code internalTopics} that exist. */
  public List<String> missing(Admin admin, Collection<String> internalTopics) throws InterruptedException {
    Set<String> topics = new TreeSet<>(literalNames(ResourceType.TOPIC));
    topics.addAll(internalTopics);
    List<String> missing = new ArrayList<>(missingOnTopics(admin, topics));
    missing.addAll(missingOnGroups(admin, literalNames(ResourceType.GROUP)));
    return missing;
  }

  /** Only {@code topics} (those that exist), e.g. the internal topics once Kafka Streams has created them. */
  public List<String> missingOnTopics(Admin admin, Collection<String> topics) throws InterruptedException {
    if (topics.isEmpty()) {
      return List.of();
    }
    Map<String, KafkaFuture<TopicDescription>> described = admin.describeTopics(topics,
        new DescribeTopicsOptions().includeAuthorizedOperations(true)).topicNameValues();
    return missingOn(new Kind<>(ResourceType.TOPIC, "topic", TopicDescription::authorizedOperations,
        TopicAuthorizationException.class, UnknownTopicOrPartitionException.class), described);
  }

  private List<String> missingOnGroups(Admin admin, Collection<String> groups) throws InterruptedException {
    if (groups.isEmpty()) {
      return List.of();
    }
    Map<String, KafkaFuture<ConsumerGroupDescription>> described = admin.describeConsumerGroups(groups,
        new DescribeConsumerGroupsOptions().includeAuthorizedOperations(true)).describedGroups();
    // Not found is answered only to a principal allowed to describe the group; a first start has none yet.
    return missingOn(new Kind<>(ResourceType.GROUP, "consumer group", ConsumerGroupDescription::authorizedOperations,
        GroupAuthorizationException.class, GroupIdNotFoundException.class), described);
  }

  /**
   * How one kind of resource is described: what the description says is authorised, the error of a resource the
   * principal may not even describe (nothing is authorised), and the error of one that does not exist (skipped).
   */
  private record Kind<D>(ResourceType type, String name, Function<D, Set<AclOperation>> authorized,
      Class<? extends Exception> denied, Class<? extends Exception> absent) {}

  private <D> List<String> missingOn(Kind<D> kind, Map<String, KafkaFuture<D>> described)
      throws InterruptedException {
    List<String> missing = new ArrayList<>();
    for (String name : new TreeSet<>(described.keySet())) {
      Set<AclOperation> needed = new TreeSet<>(kind.type() == ResourceType.TOPIC ? acls.topicOperations(name)
          : acls.groupOperations(name));
      needed.remove(AclOperation.CREATE); // it exists: nobody creates it now
      try {
        missingOf(needed, kind.authorized().apply(described.get(name).get(TIMEOUT_SECONDS, TimeUnit.SECONDS)),
            kind.type(), name, missing);
      } catch (ExecutionException e) {
        if (kind.denied().isInstance(e.getCause())) {
          missingOf(needed, Set.of(), kind.type(), name, missing);
        } else if (!kind.absent().isInstance(e.getCause())) {
          throw new IllegalStateException("could not describe " + kind.name() + " " + name + ": "
              + e.getCause().getMessage(), e.getCause());
        }
      } catch (TimeoutException e) {
        throw new IllegalStateException("no answer from Kafka about " + kind.name() + " " + name + " within "
            + TIMEOUT_SECONDS + " s", e);
      }
    }
    return missing;
  }

  /** Adds the line for what {@code needed} has that {@code authorized} lacks; a broker that does not say is trusted. */
  private void missingOf(Set<AclOperation> needed, Set<AclOperation> authorized, ResourceType type, String name,
      List<String> missing) {
    if (authorized == null) {
      return;
    }
    Set<AclOperation> lacking = new TreeSet<>(needed);
    lacking.removeAll(authorized);
    if (!lacking.isEmpty()) {
      missing.add(AccessDenied.missing(lacking, type, name, acls));
    }
  }

  private Set<String> literalNames(ResourceType type) {
    Set<String> names = new TreeSet<>();
    acls.matching(acl -> acl.resource().resourceType() == type && acl.resource().patternType() == PatternType.LITERAL)
        .forEach(acl -> names.add(acl.resource().name()));
    return names;
  }
}
