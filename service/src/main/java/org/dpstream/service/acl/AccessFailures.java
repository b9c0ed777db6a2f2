package org.dpstream.service.acl;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.dpstream.service.kafka.ClientFailures;

/**
 * The first refusal by the cluster (an ACL missing, a login refused) that any of the service's clients met:
 * Kafka Streams' threads, the deciders' producer and consumers, or the access check of {@code run}. Such a
 * failure does not go away by retrying or replacing a thread, so it stops the service: {@code /ready} reports
 * it, and {@code run} prints it as one line naming what is missing and exits with code 1 instead of looping.
 */
public final class AccessFailures implements ClientFailures {

  private final RequiredAcls acls;
  private final String hint;
  private final AtomicReference<String> first = new AtomicReference<>();
  private final CountDownLatch reported = new CountDownLatch(1);

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

  /** Records a refusal found by checking rather than met by a client (the access check's message). */
  public void deny(String message) {
    if (first.compareAndSet(null, message + hint)) {
      reported.countDown();
    }
  }

  /** The first failure's message, with the hint, if there was one. */
  @Override
  public Optional<String> fatal() {
    return Optional.ofNullable(first.get());
  }

  /** Waits at most {@code timeout} for a failure; returns it if there was one. */
  public Optional<String> await(Duration timeout) throws InterruptedException {
    reported.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    return fatal();
  }

  /** What the service needs. */
  public RequiredAcls acls() {
    return acls;
  }
}
