package org.dpstream.service.acl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.streams.errors.StreamsException;
import org.dpstream.service.config.ConfigLoader;
import org.dpstream.service.testing.RepositoryFiles;
import org.junit.jupiter.api.Test;

/** Each way Kafka refuses the service becomes one line naming the resource and what dpstream needs there. */
class AccessDeniedTest {

  private static final RequiredAcls ACLS =
      RequiredAcls.forService(ConfigLoader.load(RepositoryFiles.root().resolve("config/dpstream.yaml")));

  @Test
  void aRefusedTopicIsNamedWithTheOperationsAndReasonsDpstreamNeedsThere() {
    Optional<String> line = AccessDenied.explain(new StreamsException("Error encountered sending record",
        new TopicAuthorizationException(Set.of("dp.releases"))), ACLS);
    assertEquals(Optional.of("not authorised to use topic dp.releases, where dpstream needs Read, Write, Create (run"
        + " reads every release once before it starts, without a consumer group: a model or bandit whose state was"
        + " lost or is behind its releases must not resume; the deciders follow every release, without a consumer group, to decide from the released parameters;"
        + " Kafka Streams writes the releases; run creates it when it is missing, as createTopics.enabled says)"),
        line);
  }

  @Test
  void aRefusalWithoutTopicsTakesTheTopicFromTheExceptionWrappingIt() {
    String line = AccessDenied.explain(new StreamsException("Could not create topic dpstream-model-routing-repartition.",
        new TopicAuthorizationException("Authorization failed.")), ACLS).orElseThrow();
    assertTrue(line.startsWith("not authorised to use topic dpstream-model-routing-repartition, where dpstream needs"
        + " Read, Write, Create, Delete ("), line);
  }

  @Test
  void aRefusedGroupTransactionalIdOrLoginIsNamed() {
    assertEquals(Optional.of("not authorised to use consumer group dpstream-decider, where dpstream needs Read (the"
        + " consumer group of the context decider, whose offsets it commits)"),
        AccessDenied.explain(new ExecutionException(new GroupAuthorizationException("denied", "dpstream-decider")),
            ACLS));
    assertEquals(Optional.of("not authorised to use its transactional id: dpstream needs Write on transactional ids"
        + " prefixed dpstream- (exactly-once: the transactional producers of Kafka Streams,"
        + " <applicationId>-<process id>-<thread>)"),
        AccessDenied.explain(new StreamsException(new TransactionalIdAuthorizationException("denied")), ACLS));
    assertEquals(Optional.of("Kafka refused the login (check the SASL/SSL settings under kafka:): Authentication"
        + " failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512"),
        AccessDenied.explain(new SaslAuthenticationException("Authentication failed during authentication due to"
            + " invalid credentials with SASL mechanism SCRAM-SHA-512"), ACLS));
  }

  @Test
  void otherFailuresAreNotExplainedAsRefusals() {
    assertEquals(Optional.empty(), AccessDenied.explain(new StreamsException(new TimeoutException("slow")), ACLS));
    assertEquals(Optional.empty(), AccessDenied.explain(new IllegalStateException("boom"), ACLS));
  }

  @Test
  void failuresStopTheServiceOnceAndOnlyForRefusals() {
    AccessFailures failures = new AccessFailures(ACLS, ". see dpstream acls");
    assertEquals(false, failures.report("the deciders' producer", new TimeoutException("slow")));
    assertEquals(Optional.empty(), failures.fatal());
    assertEquals(true, failures.report("Kafka Streams", new GroupAuthorizationException("denied", "dpstream")));
    assertEquals(true, failures.report("the deciders' producer",
        new TopicAuthorizationException(Set.of("dp.decisions"))));
    assertEquals(Optional.of("Kafka Streams: not authorised to use consumer group dpstream, where dpstream needs Read"
        + " (the consumer group of Kafka Streams, named by the applicationId, whose offsets its transactions commit)."
        + " see dpstream acls"), failures.fatal(), "the first refusal is the one reported");
  }
}
