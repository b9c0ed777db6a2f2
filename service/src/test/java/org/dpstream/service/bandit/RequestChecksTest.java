package org.dpstream.service.bandit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.KeyValueStore;
import org.dpstream.bandit.Decision;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.contribution.ContributionCounts;
import org.dpstream.service.noise.RefusedStateException;
import org.dpstream.service.serde.RejectReason;
import org.junit.jupiter.api.Test;

/** Each check a request must pass before learning keeps it, alone: the first failing one names the rejection. */
class RequestChecksTest {

  /** Dimension 2, reward timeout 10 s. */
  private static final BanditRegistry.Entry EVENT_LEVEL = new BanditConfig("b", 2, 3, "logistic", 1.0, "0.1", 5L, 1,
      1e-5, 1_000, 1.0, 1.0, "10s", "drop", null, 1).toEntry();
  private static final BanditRegistry.Entry PERSON_LEVEL = new BanditConfig("b", 2, 3, "logistic", 1.0, "0.1", 5L, 1,
      1e-5, 1_000, 1.0, 1.0, "10s", "drop", null, 1, "dp-hdb", null, null, null, null, null, null,
      Map.of("by", "user", "maxContributions", 3)).toEntry();
  private static final long TIMEOUT_MS = Duration.ofSeconds(10).toMillis();

  private final KeyValueStore<String, byte[]> pendingStore = BanditStores.bytes(BanditTopology.PENDING_STORE);
  private final KeyValueStore<String, byte[]> stateStore = BanditStores.bytes(BanditTopology.STATE_STORE);
  private final PendingRequests pending = new PendingRequests(pendingStore);
  private final Deadlines deadlines = Deadlines.load("b", pendingStore);
  private final ContributionCounts counts = new ContributionCounts(stateStore, NoiseKeyRing.of(key(1)));
  private final RequestChecks checks = new RequestChecks(pending, counts);

  private static KeyedNoiseSource key(int seed) {
    byte[] material = new byte[32];
    Arrays.fill(material, (byte) seed);
    return new KeyedNoiseSource(NoiseKey.ofBytes(material));
  }

  private RequestChecks.Outcome check(BanditRegistry.Entry entry, String caller, String requestId,
      List<Double> context, String person) {
    return checks.check(entry, 1_000, 1_000, caller, requestId, context, person);
  }

  private static String refusal(RequestChecks.Outcome outcome) {
    return assertInstanceOf(RequestChecks.Refused.class, outcome).reason();
  }

  @Test
  void aWellFormedRequestIsAcceptedWithItsKeyAndContext() {
    RequestChecks.Accepted accepted = assertInstanceOf(RequestChecks.Accepted.class,
        check(EVENT_LEVEL, "alice", "r1", List.of(0.5, -2.0), null));
    assertEquals(new RequestKey(new Caller("alice"), "r1"), accepted.request());
    assertArrayEquals(new double[] {0.5, -2.0}, accepted.context());
    assertNull(accepted.heldReward(), "no reward came first");
    assertNull(accepted.person(), "an event-level bandit counts no person");
  }

  @Test
  void eachMalformedRequestIsRefusedWithItsReason() {
    assertEquals(BanditRejection.MISSING_REQUEST_ID.name(), refusal(check(EVENT_LEVEL, null, null, List.of(0.0, 0.0),
        null)));
    assertEquals(BanditRejection.MISSING_REQUEST_ID.name(), refusal(check(EVENT_LEVEL, null, "", List.of(0.0, 0.0),
        null)));
    assertEquals(BanditRejection.INVALID_CALLER.name(), refusal(check(EVENT_LEVEL, "\u0000", "r1", List.of(0.0, 0.0),
        null)));
    assertEquals(BanditRejection.WRONG_DIMENSION.name(), refusal(check(EVENT_LEVEL, null, "r1", List.of(0.0), null)));
    assertEquals(RejectReason.NON_FINITE_NUMBER.name(), refusal(check(EVENT_LEVEL, null, "r1",
        List.of(0.0, Double.NaN), null)));
  }

  @Test
  void aRequestDecidedBeforeIsADuplicateForItsCallerOnly() {
    RequestKey aliceR1 = new RequestKey(new Caller("alice"), "r1");
    pending.keep("b", aliceR1, PendingRequests.pending(new Decision(0, Decision.Phase.GREEDY, 1), 1_000,
        Duration.ofMillis(TIMEOUT_MS), new double[] {0, 0}), deadlines);
    assertEquals(BanditRejection.DUPLICATE_REQUEST.name(), refusal(check(EVENT_LEVEL, "alice", "r1",
        List.of(0.0, 0.0), null)));
    assertInstanceOf(RequestChecks.Accepted.class, check(EVENT_LEVEL, "bob", "r1", List.of(0.0, 0.0), null));
  }

  @Test
  void aRequestPastItsRewardDeadlineAtTheBanditsStreamTimeIsStale() {
    long timestamp = 5_000;
    long deadline = PendingRequests.dueAfter(timestamp, Duration.ofMillis(TIMEOUT_MS));
    assertInstanceOf(RequestChecks.Accepted.class,
        checks.check(EVENT_LEVEL, deadline - 1, timestamp, null, "r1", List.of(0.0, 0.0), null));
    assertEquals(BanditRejection.STALE_DECISION.name(), refusal(
        checks.check(EVENT_LEVEL, deadline, timestamp, null, "r1", List.of(0.0, 0.0), null)));
  }

  @Test
  void aRewardHeldForTheRequestComesWithIt() {
    RequestKey request = new RequestKey(Caller.DEFAULT, "r1");
    new HeldRewards(pendingStore).hold("b", request, 0.75, 900, Duration.ofMillis(TIMEOUT_MS), null,
        HeldRewardsTest.rejection("UNKNOWN_REQUEST"), deadlines);
    RequestChecks.Accepted accepted = assertInstanceOf(RequestChecks.Accepted.class,
        check(EVENT_LEVEL, null, "r1", List.of(0.0, 0.0), null));
    assertEquals(0.75, accepted.heldReward().reward());
  }

  @Test
  void aPersonLevelRequestNeedsItsPersonAndComesWithTheirCount() {
    assertEquals(BanditRejection.MISSING_USER_ID.name(), refusal(check(PERSON_LEVEL, null, "r1", List.of(0.0, 0.0),
        null)));
    RequestChecks.Accepted first = assertInstanceOf(RequestChecks.Accepted.class,
        check(PERSON_LEVEL, null, "r1", List.of(0.0, 0.0), "p1"));
    assertEquals(0, first.person().count());
    counts.add(first.person());
    RequestChecks.Accepted second = assertInstanceOf(RequestChecks.Accepted.class,
        check(PERSON_LEVEL, null, "r2", List.of(0.0, 0.0), "p1"));
    assertEquals(1, second.person().count(), "the checks read the count and add nothing");
  }

  @Test
  void countsMadeUnderAKeyTheRingNoLongerHoldsStopTheBandit() {
    RequestChecks.Accepted accepted = assertInstanceOf(RequestChecks.Accepted.class,
        check(PERSON_LEVEL, null, "r1", List.of(0.0, 0.0), "p1"));
    counts.add(accepted.person());
    RequestChecks underAnotherKey = new RequestChecks(pending, new ContributionCounts(stateStore,
        NoiseKeyRing.of(key(2))));
    assertThrows(RefusedStateException.class,
        () -> underAnotherKey.check(PERSON_LEVEL, 1_000, 1_000, null, "r2", List.of(0.0, 0.0), "p1"));
  }
}
