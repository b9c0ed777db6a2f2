package org.dpstream.service.acl;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;

/**
 * {@link RequiredAcls} as text: {@code kafka-acls.sh} commands (one per resource, its operations and their
 * reasons in a comment above it) or a Markdown table (docs/security-and-privacy.md holds the one of
 * {@code config/dpstream.yaml}).
 */
final class AclListing {

  private static final Pattern SHELL_SAFE = Pattern.compile("[A-Za-z0-9._:/=@,+-]+");

  private AclListing() {}

  /**
   * @param bootstrap the cluster's address, or null for {@code "$BOOTSTRAP"}
   * @param commandConfig the administrator's client properties file, or null for {@code "$ADMIN_CONFIG"}
   */
  static List<String> kafkaAcls(RequiredAcls acls, String principal, String bootstrap, String commandConfig) {
    String connect = "kafka-acls.sh --bootstrap-server " + (bootstrap == null ? "\"$BOOTSTRAP\"" : quote(bootstrap))
        + " --command-config " + (commandConfig == null ? "\"$ADMIN_CONFIG\"" : quote(commandConfig))
        + " --add --allow-principal " + quote(principal) + " --allow-host '" + RequiredAcl.ANY_HOST + "'";
    List<String> lines = new ArrayList<>();
    byResource(acls).forEach((resource, resourceAcls) -> {
      for (RequiredAcl acl : resourceAcls) {
        lines.add("# " + AccessDenied.name(acl.operation()) + ": " + acl.why());
      }
      StringBuilder command = new StringBuilder(connect);
      resourceAcls.forEach(acl -> command.append(" --operation ").append(AccessDenied.name(acl.operation())));
      command.append(resourceOption(resource));
      lines.add(command.toString());
    });
    return lines;
  }

  /** One row per ACL: resource, pattern type, operation, why. */
  static List<String> table(RequiredAcls acls) {
    List<String> lines = new ArrayList<>();
    lines.add("| resource | name | pattern | operation | why |");
    lines.add("|---|---|---|---|---|");
    for (RequiredAcl acl : acls.all()) {
      ResourcePattern resource = acl.resource();
      lines.add("| " + kind(resource) + " | `" + resource.name() + "` | " + pattern(resource) + " | "
          + AccessDenied.name(acl.operation()) + " | " + acl.why() + " |");
    }
    return lines;
  }

  private static Map<ResourcePattern, List<RequiredAcl>> byResource(RequiredAcls acls) {
    Map<ResourcePattern, List<RequiredAcl>> grouped = new LinkedHashMap<>();
    acls.all().forEach(acl -> grouped.computeIfAbsent(acl.resource(), r -> new ArrayList<>()).add(acl));
    return grouped;
  }

  private static String resourceOption(ResourcePattern resource) {
    String option = switch (resource.resourceType()) {
      case TOPIC -> " --topic ";
      case GROUP -> " --group ";
      case TRANSACTIONAL_ID -> " --transactional-id ";
      default -> throw new IllegalArgumentException("no kafka-acls option for " + resource);
    };
    return option + quote(resource.name())
        + (resource.patternType() == PatternType.PREFIXED ? " --resource-pattern-type prefixed" : "");
  }

  private static String kind(ResourcePattern resource) {
    return switch (resource.resourceType()) {
      case TOPIC -> "topic";
      case GROUP -> "group";
      case TRANSACTIONAL_ID -> "transactional id";
      default -> resource.resourceType().name().toLowerCase(java.util.Locale.ROOT);
    };
  }

  private static String pattern(ResourcePattern resource) {
    return resource.patternType() == PatternType.PREFIXED ? "prefixed" : "literal";
  }

  private static String quote(String word) {
    return SHELL_SAFE.matcher(word).matches() ? word : "'" + word.replace("'", "'\\''") + "'";
  }
}
