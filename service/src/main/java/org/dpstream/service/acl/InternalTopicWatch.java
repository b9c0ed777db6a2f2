package org.dpstream.service.acl;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks the ACLs of Kafka Streams' internal topics as it creates them: on a first start they do not exist when
 * {@code run} checks the others, and a refused one (say {@code Delete} on a routing topic, whose consumed records
 * would then stay on disk) would show only when, or if, a client meets it. Once every internal topic exists and has
 * been checked, the watch is done.
 */
public final class InternalTopicWatch implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(InternalTopicWatch.class);
  private static final Duration INTERVAL = Duration.ofSeconds(1);
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final Set<String> internal;
  private final AccessFailures access;
  private final Admin admin;
  private boolean done;
  private long nextCheck;

  /**
   * @param adminSettings the service's admin client settings
   * @param internal the internal topics' names ({@code TopologyTopics.internal()})
   * @param access where a refusal goes
   */
  public InternalTopicWatch(Map<String, Object> adminSettings, Set<String> internal, AccessFailures access) {
    this.internal = Set.copyOf(internal);
    this.access = access;
    this.admin = Admin.create(adminSettings);
  }

  /** Checks the internal topics that exist, at most once a second, until all of them exist and have been checked. */
  public void checkIfDue() throws InterruptedException {
    if (done || System.nanoTime() < nextCheck) {
      return;
    }
    nextCheck = System.nanoTime() + INTERVAL.toNanos();
    try {
      boolean allExist = admin.listTopics().names().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS).containsAll(internal);
      access.denyMissing(new AccessCheck(access.acls()).missingOnTopics(admin, internal));
      done = allExist;
    } catch (ExecutionException | TimeoutException e) {
      // Not answered this time (a busy or restarting broker): asked again at the next interval.
    } catch (IllegalStateException | KafkaException e) {
      if (!access.report("the internal topic check", e)) {
        LOG.warn("could not check the ACLs of the internal topics: {}", e.getMessage());
        done = true;
      }
    }
  }

  @Override
  public void close() {
    admin.close(TIMEOUT);
  }
}
