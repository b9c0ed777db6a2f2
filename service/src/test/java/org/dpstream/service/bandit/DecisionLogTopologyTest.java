package org.dpstream.service.bandit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;
import org.apache.kafka.streams.test.TestRecord;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.hdb.DpHdbPolicy;
import org.dpstream.schemas.DecidedRequest;
import org.dpstream.schemas.DecisionPhase;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.schemas.Reward;
import org.dpstream.service.serde.DpSerdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The topology with deciders ({@link BanditTopology.Deciding#BY_DECIDERS}): it reads the decision log instead
 * of dp.contexts, decides nothing itself, and learns each logged decision's arm exactly as if it had made it.
 */
class DecisionLogTopologyTest {

  @TempDir Path stateDir;

  private static final String BANDIT = DecisionLogFixture.BANDIT;

  @Test
  void loggedDecisionsAreLearntAsTheTopologysOwnAndNothingIsDecidedAgain() {
    try (DecisionLogFixture log = new DecisionLogFixture(stateDir)) {
      // The reference: the same bandit's policy, learning the arm each logged decision names.
      DpHdbPolicy reference = DpHdbPolicy.start(log.entry.hdb(), BanditTopologyTest.noiseOf(BANDIT));
      long t = 1_000;
      for (int i = 0; i < 30; i++) {
        double[] x = BanditTopologyTest.context(i);
        int arm = i % log.entry.spec().arms(); // any arm a decider chose, not necessarily the policy's
        log.requests.pipeInput(record(decision("r" + i, arm, reference.rounds(), x), t++));
        log.rewards.pipeInput(record(reward("r" + i, 0.3 * arm), t++));
        reference.update(new Decision(arm, Decision.Phase.WARM_UP, reference.rounds()), x, 0.3 * arm);
      }
      assertTrue(log.decisions.isEmpty(), "the deciders wrote the decisions; the topology writes none");
      List<ModelRelease> released = log.releases.readValuesToList();
      ModelRelease last = released.get(released.size() - 1);
      assertEquals(30, last.getStep());
      List<ModelRelease> expected = BanditReleases.ofRound(reference, 1);
      assertEquals(expected.get(expected.size() - 1), last);
      assertArrayEquals(reference.armParameters(0), BanditTopologyTest.parameters(
          released.stream().filter(r -> r.getModelId().equals(BANDIT + "/arm-0")).reduce((a, b) -> b).orElseThrow()));
      assertTrue(log.rejected.isEmpty());
      assertEquals(0, log.held());

      // A decision naming no arm of the bandit, or a step not reached, is rejected; a request id twice too.
      double[] x = BanditTopologyTest.context(99);
      log.requests.pipeInput(record(decision("bad-arm", 7, 3, x), t++));
      log.requests.pipeInput(record(decision("future", 0, 31, x), t++));
      log.requests.pipeInput(record(decision("r3", 0, 3, x), t++));
      log.requests.pipeInput(record(new byte[] {1, 2, 3}, t++));
      assertEquals(List.of("INVALID_DECISION", "INVALID_DECISION", "DUPLICATE_REQUEST", "UNDECODABLE"),
          log.rejectionReasons());
    }
  }

  /**
   * A decision's log record and its reward reach learning through routing tasks that read their partitions
   * independently, so the reward can come first although it was written second. It is held, and learnt when its
   * decision comes: the releases are those of the same pairs in order.
   */
  @Test
  void aRewardThatComesBeforeItsDecisionIsLearntAsIfItHadComeAfter() {
    List<ModelRelease> inOrder;
    try (DecisionLogFixture log = new DecisionLogFixture(stateDir)) {
      pipePairs(log, 12, i -> false);
      inOrder = log.releases.readValuesToList();
      assertTrue(log.rejected.isEmpty());
    }
    try (DecisionLogFixture log = new DecisionLogFixture(stateDir)) {
      pipePairs(log, 12, i -> i % 3 != 1);
      assertEquals(inOrder, log.releases.readValuesToList());
      assertTrue(log.rejected.isEmpty());
      assertEquals(8, log.held());

      // The held reward's request is complete: a second reward is a duplicate, as after any joined request.
      log.rewards.pipeInput(record(reward("r0", 0.5), 2_000));
      assertEquals(List.of("DUPLICATE_REWARD"), log.rejectionReasons());
    }
  }

  /** Decision and reward of request i at times 1000 + 10 i and 1000 + 10 i + 1; the reward first where asked. */
  private static void pipePairs(DecisionLogFixture log, int pairs, IntPredicate rewardFirst) {
    for (int i = 0; i < pairs; i++) {
      long t = 1_000 + 10L * i;
      TestRecord<byte[], byte[]> decision = record(decision("r" + i, i % 2, i, BanditTopologyTest.context(i)), t);
      TestRecord<byte[], byte[]> reward = record(reward("r" + i, 0.1 * i), t + 1);
      if (rewardFirst.test(i)) {
        log.rewards.pipeInput(reward);
        log.requests.pipeInput(decision);
      } else {
        log.requests.pipeInput(decision);
        log.rewards.pipeInput(reward);
      }
    }
  }

  /**
   * A reward whose decision does not come within the reward timeout (of the bandit's stream time) is rejected as it
   * would have been on arrival: UNKNOWN_REQUEST, with its key, its bytes and where it was read. Its decision, if it
   * comes after all, waits for a reward like any other.
   */
  @Test
  void aRewardWhoseDecisionDoesNotComeIsRejectedWhenTheRewardTimeoutHasPassed() {
    try (DecisionLogFixture log = new DecisionLogFixture(stateDir)) {
      byte[] lost = reward("lost", 0.5);
      log.rewards.pipeInput(record(lost, 1_000));
      log.rewards.pipeInput(record(reward("lost", 0.7), 1_001));
      assertEquals(List.of("DUPLICATE_REWARD"), log.rejectionReasons(), "a second reward is refused at once");
      long timeout = BanditTopologyTest.TIMEOUT_MS;
      log.requests.pipeInput(record(decision("other", 0, 0, BanditTopologyTest.context(1)), 1_000 + timeout - 1));
      assertTrue(log.rejected.isEmpty(), "held until its timestamp plus the reward timeout");

      log.requests.pipeInput(record(decision("another", 1, 0, BanditTopologyTest.context(2)), 1_000 + timeout));
      List<TestRecord<String, RejectedRecord>> rejections = log.rejected.readRecordsToList();
      assertEquals(1, rejections.size());
      TestRecord<String, RejectedRecord> rejection = rejections.get(0);
      assertEquals(BANDIT, rejection.key());
      assertEquals(1_000, rejection.timestamp());
      RejectedRecord value = rejection.value();
      assertEquals("UNKNOWN_REQUEST", value.getReason());
      assertTrue(value.getMessage().contains("lost"), value.getMessage());
      assertEquals(ByteBuffer.wrap(lost), value.getOriginalValue());
      assertEquals(ByteBuffer.wrap(BANDIT.getBytes(StandardCharsets.UTF_8)), value.getOriginalKey());
      assertEquals(log.topics.rewards().name(), value.getSourceTopic());
      assertEquals(0, value.getSourceOffset());

      log.requests.pipeInput(record(decision("lost", 0, 0, BanditTopologyTest.context(3)), 1_000 + timeout + 1));
      assertTrue(log.releases.isEmpty(), "no round: the reward is gone");
      log.rewards.pipeInput(record(reward("lost", 0.2), 1_000 + timeout + 2));
      assertEquals(1, log.releases.readValuesToList().stream().mapToLong(ModelRelease::getStep).max().orElse(0));
      assertTrue(log.rejected.isEmpty());
    }
  }

  /** Two callers' requests of one id are two requests: each is decided, rewarded and learnt on its own. */
  @Test
  void requestsOfOneIdByTwoCallersAreTwoRequests() {
    try (DecisionLogFixture log = new DecisionLogFixture(stateDir)) {
      double[] x = BanditTopologyTest.context(1);
      log.requests.pipeInput(record(decision("alice", "r", 0, 0, x), 1_000));
      log.requests.pipeInput(record(decision("bob", "r", 1, 0, x), 1_001));
      log.requests.pipeInput(record(decision(null, "r", 0, 0, x), 1_002));
      assertTrue(log.rejected.isEmpty(), "no duplicate: three callers' requests");
      log.rewards.pipeInput(record(reward("bob", "r", 0.5), 1_003));
      log.rewards.pipeInput(record(reward("alice", "r", 0.25), 1_004));
      log.rewards.pipeInput(record(reward(null, "r", 0.75), 1_005));
      assertEquals(3, log.releases.readValuesToList().stream().mapToLong(ModelRelease::getStep).max().orElse(0));
      assertTrue(log.rejected.isEmpty());
      log.rewards.pipeInput(record(reward("alice", "r", 0.25), 1_006));
      assertEquals(List.of("DUPLICATE_REWARD"), log.rejectionReasons(), "each caller's request has its reward");
    }
  }

  /**
   * A reward of caller B for the id of caller A's decision joins nothing of A's: the releases are those of the run
   * without B's reward, and B's reward meets the fate it meets when A's request does not exist (held, then
   * UNKNOWN_REQUEST, the same rejected record).
   */
  @Test
  void aCallersRewardCannotRewardAnotherCallersDecision() {
    List<ModelRelease> withoutB;
    try (DecisionLogFixture log = new DecisionLogFixture(stateDir.resolve("without-b"))) {
      pipe(log, true, false);
      withoutB = log.releases.readValuesToList();
      assertEquals(1, withoutB.get(withoutB.size() - 1).getStep(), "A's round");
      assertTrue(log.rejected.isEmpty());
    }
    List<RejectedRecord> rejectedWithA;
    try (DecisionLogFixture log = new DecisionLogFixture(stateDir.resolve("with-a"))) {
      pipe(log, true, true);
      assertEquals(withoutB, log.releases.readValuesToList(), "B's reward changed nothing A's round learnt");
      rejectedWithA = log.rejected.readValuesToList();
    }
    try (DecisionLogFixture log = new DecisionLogFixture(stateDir.resolve("without-a"))) {
      pipe(log, false, true);
      assertTrue(log.releases.isEmpty());
      List<RejectedRecord> rejectedWithoutA = log.rejected.readValuesToList();
      assertEquals(List.of("UNKNOWN_REQUEST"), rejectedWithoutA.stream().map(RejectedRecord::getReason).toList());
      assertEquals(rejectedWithoutA, rejectedWithA, "B's reward is rejected alike, whether A's request exists or not");
    }
  }

  /**
   * B's reward for "r" (if asked) at 1000; A's decision "r" and A's reward (if asked) at 1001 and 1002; then a
   * request past the reward timeout, which moves the bandit's stream time on.
   */
  private static void pipe(DecisionLogFixture log, boolean requestOfA, boolean rewardOfB) {
    double[] x = BanditTopologyTest.context(1);
    if (rewardOfB) {
      log.rewards.pipeInput(record(reward("bob", "r", 0.5), 1_000));
    }
    if (requestOfA) {
      log.requests.pipeInput(record(decision("alice", "r", 1, 0, x), 1_001));
      log.rewards.pipeInput(record(reward("alice", "r", 0.25), 1_002));
    }
    log.requests.pipeInput(record(decision("carol", "tick", 0, 0, x), 1_003 + BanditTopologyTest.TIMEOUT_MS));
  }

  @Test
  void aRecordNamingAnEmptyCallerIsRejected() {
    try (DecisionLogFixture log = new DecisionLogFixture(stateDir)) {
      log.requests.pipeInput(record(decision("", "r", 0, 0, BanditTopologyTest.context(1)), 1_000));
      log.rewards.pipeInput(record(reward("", "r", 0.5), 1_001));
      assertEquals(List.of("INVALID_CALLER", "INVALID_CALLER"), log.rejectionReasons());
    }
  }

  private static byte[] decision(String requestId, int arm, long step, double[] x) {
    return decision(null, requestId, arm, step, x);
  }

  private static byte[] decision(String caller, String requestId, int arm, long step, double[] x) {
    List<Double> values = Arrays.stream(x).boxed().toList();
    return DpSerdes.decidedRequest().encode(DecidedRequest.newBuilder()
        .setDecision(DecisionResponse.newBuilder().setRequestId(requestId).setArm(arm).setModelStep(step)
            .setPhase(DecisionPhase.WARM_UP).setCaller(caller).build())
        .setContext(values).build());
  }

  private static byte[] reward(String requestId, double r) {
    return reward(null, requestId, r);
  }

  private static byte[] reward(String caller, String requestId, double r) {
    return DpSerdes.reward().encode(Reward.newBuilder().setRequestId(requestId).setReward(r).setCaller(caller).build());
  }

  private static TestRecord<byte[], byte[]> record(byte[] value, long timestamp) {
    return new TestRecord<>(BANDIT.getBytes(StandardCharsets.UTF_8), value, null, timestamp);
  }
}
