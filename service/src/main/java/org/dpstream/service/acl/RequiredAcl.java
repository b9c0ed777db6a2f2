package org.dpstream.service.acl;

import java.util.Objects;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;

/**
 * One ACL a dpstream role needs: an operation on a resource pattern, and why.
 *
 * @param resource a topic, group or transactional id, literal or prefixed
 * @param operation what the role does there (implied operations such as DESCRIBE are not listed)
 * @param why which part of dpstream does it, for the operator reading the list
 */
public record RequiredAcl(ResourcePattern resource, AclOperation operation, String why) {

  /** Every host: dpstream's instances move between machines. */
  public static final String ANY_HOST = "*";

  public RequiredAcl {
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(why, "why");
  }

  /** This ACL for {@code principal} (e.g. {@code User:dpstream}) from any host. */
  public AclBinding binding(String principal) {
    return new AclBinding(resource, new AccessControlEntry(principal, ANY_HOST, operation, AclPermissionType.ALLOW));
  }

  /** Whether the pattern is a prefix of names ({@code <applicationId>-...}) rather than one name. */
  public boolean prefixed() {
    return resource.patternType() == PatternType.PREFIXED;
  }
}
