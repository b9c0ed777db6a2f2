package org.dpstream.service.bandit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueStore;
import org.dpstream.bandit.Decision;
import org.junit.jupiter.api.Test;

/** A reward joins its own pending request once: not another caller's, not another bandit's, not a completed one. */
class PendingRequestsTest {

  private static final Duration TIMEOUT = Duration.ofMillis(1_000);
  private static final RequestKey ALICE_R1 = new RequestKey(new Caller("alice"), "r1");
  private static final RequestKey BOB_R1 = new RequestKey(new Caller("bob"), "r1");
  private static final Decision DECISION = new Decision(2, Decision.Phase.GREEDY, 7);

  private final KeyValueStore<String, byte[]> store = BanditStores.bytes(BanditTopology.PENDING_STORE);
  private final PendingRequests pending = new PendingRequests(store);
  private final Deadlines deadlines = Deadlines.load("b", store);

  private List<String> dueBy(long now) {
    List<String> due = new ArrayList<>();
    deadlines.expireDue(now, d -> due.add(d.request().caller().name() + "/" + d.request().requestId()));
    return due;
  }

  @Test
  void aRewardJoinsItsOwnPendingRequestOnly() {
    pending.keep("b", ALICE_R1, PendingRequests.pending(DECISION, 500, TIMEOUT, new double[] {0.5, -1}), deadlines);
    PendingRequests.Joins joins = assertInstanceOf(PendingRequests.Joins.class, pending.match("b", ALICE_R1));
    assertEquals(DECISION, joins.request().decision());
    assertArrayEquals(new double[] {0.5, -1}, joins.request().context());
    assertInstanceOf(PendingRequests.NoRequest.class, pending.match("b", BOB_R1), "another caller's r1");
    assertInstanceOf(PendingRequests.NoRequest.class, pending.match("b2", ALICE_R1), "another bandit's r1");
    assertInstanceOf(PendingRequests.NoRequest.class,
        pending.match("b", new RequestKey(new Caller("alice"), "r2")));
  }

  @Test
  void aCompletedRequestRefusesEveryFurtherRewardWithWhatHappenedToIt() {
    PendingRequest request = PendingRequests.pending(DECISION, 500, TIMEOUT, new double[] {1});
    pending.keep("b", ALICE_R1, request, deadlines);
    pending.keep("b", BOB_R1, request, deadlines);
    pending.complete("b", ALICE_R1, request, PendingRequest.Status.JOINED, deadlines);
    pending.complete("b", BOB_R1, request, PendingRequest.Status.EXPIRED, deadlines);
    assertEquals(BanditRejection.DUPLICATE_REWARD,
        assertInstanceOf(PendingRequests.Refused.class, pending.match("b", ALICE_R1)).reason());
    assertEquals(BanditRejection.EXPIRED_REQUEST,
        assertInstanceOf(PendingRequests.Refused.class, pending.match("b", BOB_R1)).reason());
    PendingRequests.Decided marker = assertInstanceOf(PendingRequests.Decided.class, pending.find("b", ALICE_R1));
    assertEquals(0, marker.request().context().length, "a completion marker keeps no context");
    assertEquals(List.of(), dueBy(1_500), "no longer due at its deadline");
    assertEquals(List.of("alice/r1", "bob/r1"), dueBy(2_500), "due at its purge time");
  }

  @Test
  void aRewardForARequestWithAHeldRewardIsADuplicate() {
    new HeldRewards(store).hold("b", ALICE_R1, 1.0, 10, TIMEOUT, null,
        HeldRewardsTest.rejection("UNKNOWN_REQUEST"), deadlines);
    assertInstanceOf(PendingRequests.Held.class, pending.find("b", ALICE_R1));
    PendingRequests.Refused refused = assertInstanceOf(PendingRequests.Refused.class, pending.match("b", ALICE_R1));
    assertEquals(BanditRejection.DUPLICATE_REWARD, refused.reason());
    pending.remove("b", ALICE_R1);
    assertInstanceOf(PendingRequests.Empty.class, pending.find("b", ALICE_R1));
  }

  @Test
  void aPendingRequestIsDueAtItsDeadlineAndPurgedATimeoutLaterSaturating() {
    PendingRequest request = PendingRequests.pending(DECISION, 500, TIMEOUT, new double[0]);
    assertEquals(500, request.contextTimestamp());
    assertEquals(1_500, request.deadline());
    assertEquals(2_500, request.purgeAt());
    PendingRequest early = PendingRequests.pending(DECISION, -40, TIMEOUT, new double[0]);
    assertEquals(0, early.contextTimestamp(), "a negative timestamp counts as 0");
    assertEquals(1_000, early.deadline());
    PendingRequest last = PendingRequests.pending(DECISION, Long.MAX_VALUE - 10, TIMEOUT, new double[0]);
    assertEquals(Long.MAX_VALUE, last.deadline());
    assertEquals(Long.MAX_VALUE, last.purgeAt());
    pending.keep("b", ALICE_R1, request, deadlines);
    assertEquals(List.of(), dueBy(1_499));
    assertEquals(List.of("alice/r1"), dueBy(1_500));
  }
}
