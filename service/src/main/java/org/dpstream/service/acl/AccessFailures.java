package org.dpstream.service.acl;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.dpstream.service.kafka.ClientFailures;

/**
 * The first refusal by the cluster (an ACL missing, a login refused) that any of the service's clients met:
 * Kafka Streams' threads, the deciders' producer and consumers, or the access check of {@code run}. Such a
 * failure does not go away by retrying or replacing a thread, so it stops the service: {@code run} closes it,
 * prints the failure as one line naming what is missing and exits with code 1 instead of looping.
 */
public final class AccessFailures implements ClientFailures {

  private final RequiredAcls acls;
  private final String hint;
  private final AtomicReference<String> first = new AtomicReference<>();

  /**
   * @param acls what the service needs, to name the missing ACLs
   * @param hint appended to the message, e.g. how to print the ACLs for this config
   */
  public AccessFailures(RequiredAcls acls, String hint) {
    this.acls = acls;
    this.hint = hint;
  }

  /** Records {@code failure} if it is an authorization or authentication failure and none was recorded before. */
  @Override
  public boolean report(String client, Throwable failure) {
    Optional<String> explanation = AccessDenied.explain(failure, acls);
    explanation.ifPresent(text -> deny(client + ": " + text));
    return explanation.isPresent();
  }

  /** Records the ACLs {@link AccessCheck} found missing, all in one message, if there are any. */
  public void denyMissing(List<String> missing) {
    if (!missing.isEmpty()) {
      deny("the cluster's ACLs do not allow " + String.join("; ", missing));
    }
  }

  private void deny(String message) {
    first.compareAndSet(null, message + hint);
  }

  /** The first failure's message, with the hint, if there was one. */
  @Override
  public Optional<String> fatal() {
    return Optional.ofNullable(first.get());
  }

  /** What the service needs. */
  public RequiredAcls acls() {
    return acls;
  }
}
