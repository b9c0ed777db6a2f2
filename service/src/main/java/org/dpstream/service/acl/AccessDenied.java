package org.dpstream.service.acl;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Says in one line what a refused Kafka request means: which resource the principal may not use, and which
 * ACLs dpstream needs there and why (from {@link RequiredAcls}). Kafka's own exceptions name the topic or
 * group but not the operation, and arrive wrapped (a StreamsException, an ExecutionException), so the whole
 * cause chain is searched. Authentication failures are named too; their messages carry no credentials.
 */
public final class AccessDenied {

  private AccessDenied() {}

  /** The explanation if {@code failure} (or a cause) is an authorization or authentication failure. */
  public static Optional<String> explain(Throwable failure, RequiredAcls acls) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof TopicAuthorizationException topics) {
        Set<String> names = topics.unauthorizedTopics() == null || topics.unauthorizedTopics().isEmpty()
            ? topicsNamedIn(failure, acls) : topics.unauthorizedTopics();
        return Optional.of(topics(names, acls));
      }
      if (cause instanceof GroupAuthorizationException group) {
        String id = group.groupId();
        return Optional.of("not authorised to use consumer group " + (id == null ? "(unnamed)" : id)
            + (id == null ? "" : needs(acls.groupOperations(id), acls, ResourceType.GROUP, id)));
      }
      if (cause instanceof TransactionalIdAuthorizationException) {
        return Optional.of("not authorised to use its transactional id" + transactionalIds(acls));
      }
      if (cause instanceof ClusterAuthorizationException) {
        return Optional.of("not authorised for a cluster operation: " + cause.getMessage());
      }
      if (cause instanceof AuthorizationException) {
        return Optional.of("not authorised: " + cause.getMessage());
      }
      if (cause instanceof AuthenticationException) {
        return Optional.of("Kafka refused the login (check the SASL/SSL settings under kafka:): " + cause.getMessage());
      }
    }
    return Optional.empty();
  }

  /** The line naming an operation missing on a resource and why it is needed (for the access check). */
  static String missing(Set<AclOperation> operations, ResourceType type, String name, RequiredAcls acls) {
    return names(operations) + " on " + kind(type) + " " + name + " (" + reasons(operations, type, name, acls) + ")";
  }

  /**
   * The topics of {@code acls} named in the messages of the chain: some refusals (Kafka Streams creating an
   * internal topic) carry no topic, but the exception wrapping them names it.
   */
  private static Set<String> topicsNamedIn(Throwable failure, RequiredAcls acls) {
    List<String> known = acls.matching(acl -> acl.resource().resourceType() == ResourceType.TOPIC).stream()
        .map(acl -> acl.resource().name()).distinct().toList();
    Set<String> named = new TreeSet<>();
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      String message = cause.getMessage() == null ? "" : cause.getMessage();
      for (String word : message.split("[\\s,;:()\\[\\]]+")) {
        String topic = word.endsWith(".") ? word.substring(0, word.length() - 1) : word;
        if (known.stream().anyMatch(topic::startsWith)) {
          named.add(topic);
        }
      }
    }
    return named;
  }

  private static String topics(Set<String> topics, RequiredAcls acls) {
    if (topics == null || topics.isEmpty()) {
      return "not authorised to use a topic";
    }
    List<String> parts = new ArrayList<>();
    for (String topic : new TreeSet<>(topics)) {
      parts.add("topic " + topic + needs(acls.topicOperations(topic), acls, ResourceType.TOPIC, topic));
    }
    return "not authorised to use " + String.join("; ", parts);
  }

  private static String needs(Set<AclOperation> operations, RequiredAcls acls, ResourceType type, String name) {
    if (operations.isEmpty()) {
      return "";
    }
    return ", where dpstream needs " + names(operations) + " (" + reasons(operations, type, name, acls) + ")";
  }

  private static String transactionalIds(RequiredAcls acls) {
    return acls.matching(acl -> acl.resource().resourceType() == ResourceType.TRANSACTIONAL_ID).stream()
        .map(acl -> ": dpstream needs " + names(Set.of(acl.operation())) + " on transactional ids "
            + (acl.prefixed() ? "prefixed " : "") + acl.resource().name() + " (" + acl.why() + ")")
        .findFirst().orElse("");
  }

  private static String reasons(Set<AclOperation> operations, ResourceType type, String name, RequiredAcls acls) {
    return acls.matching(acl -> acl.resource().resourceType() == type && operations.contains(acl.operation())
            && (acl.prefixed() ? name.startsWith(acl.resource().name()) : name.equals(acl.resource().name())))
        .stream().map(RequiredAcl::why).distinct().collect(Collectors.joining("; "));
  }

  static String names(Set<AclOperation> operations) {
    return operations.stream().sorted().map(AccessDenied::name).collect(Collectors.joining(", "));
  }

  /** As kafka-acls spells it: {@code Read}, {@code DescribeConfigs}. */
  static String name(AclOperation operation) {
    StringBuilder name = new StringBuilder();
    for (String word : operation.name().split("_")) {
      name.append(word.charAt(0)).append(word.substring(1).toLowerCase(Locale.ROOT));
    }
    return name.toString();
  }

  private static String kind(ResourceType type) {
    return switch (type) {
      case TOPIC -> "topic";
      case GROUP -> "consumer group";
      case TRANSACTIONAL_ID -> "transactional id";
      case CLUSTER -> "the cluster";
      default -> type.name().toLowerCase(Locale.ROOT);
    };
  }
}
