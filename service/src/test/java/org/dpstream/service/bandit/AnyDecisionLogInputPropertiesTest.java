package org.dpstream.service.bandit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterTry;
import net.jqwik.api.lifecycle.BeforeTry;
import org.apache.kafka.streams.test.TestRecord;
import org.dpstream.schemas.DecidedRequest;
import org.dpstream.schemas.DecisionPhase;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.schemas.Reward;
import org.dpstream.service.serde.DpSerdes;

/**
 * The topology with deciders under any order of logged decisions and rewards (a reward before or after its decision,
 * twice, for a request never decided, across reward timeouts), invalid decisions, any reward value and garbage bytes:
 * nothing escapes the driver and nothing is a processing error; once the bandit's stream time has passed every
 * timeout, each reward record has exactly one outcome (a joined round or a rejection) and so has each logged decision
 * (a rejection, a joined round or an expiry); every release is finite.
 */
class AnyDecisionLogInputPropertiesTest {

  private static final String BANDIT = DecisionLogFixture.BANDIT;
  private static final long TIMEOUT_MS = BanditTopologyTest.TIMEOUT_MS;

  enum Kind { DECISION, REWARD, GARBAGE_DECISION, GARBAGE_REWARD }

  record Event(Kind kind, int request, int arm, long step, double reward, long delayMillis) {}

  private Path stateDir;
  private DecisionLogFixture log;

  @BeforeTry
  void start() throws IOException {
    stateDir = Files.createTempDirectory("any-decision-log-input");
    log = new DecisionLogFixture(stateDir);
  }

  @AfterTry
  void stop() throws IOException {
    log.closeAndDelete(stateDir);
  }

  @Provide
  Arbitrary<List<Event>> sessions() {
    Arbitrary<Double> reward = Arbitraries.frequencyOf(
        Tuple.of(8, Arbitraries.doubles().between(-2, 2)),
        Tuple.of(1, Arbitraries.of(Double.NaN, Double.POSITIVE_INFINITY, Double.MAX_VALUE, -0.0, 1e300)));
    Arbitrary<Event> event = Combinators.combine(
        Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.just(Kind.DECISION)),
            Tuple.of(6, Arbitraries.just(Kind.REWARD)),
            Tuple.of(1, Arbitraries.just(Kind.GARBAGE_DECISION)), Tuple.of(1, Arbitraries.just(Kind.GARBAGE_REWARD))),
        Arbitraries.integers().between(0, 5),
        Arbitraries.integers().between(-1, 2),
        Arbitraries.longs().between(0, 2),
        reward,
        Arbitraries.frequencyOf(Tuple.of(8, Arbitraries.longs().between(0, 50)),
            Tuple.of(1, Arbitraries.longs().between(TIMEOUT_MS - 5, TIMEOUT_MS + 5)),
            Tuple.of(1, Arbitraries.longs().between(2 * TIMEOUT_MS, 3 * TIMEOUT_MS))))
        .as(Event::new);
    return event.list().ofMinSize(1).ofMaxSize(24);
  }

  @Property(tries = 40, seed = "909", edgeCases = EdgeCasesMode.NONE)
  void everyDecisionAndRewardHasExactlyOneOutcome(@ForAll("sessions") List<Event> session) {
    long clock = 1_000;
    // (request id, time) of every decision that is valid whatever came before it: an arm of the bandit, step 0.
    Map<String, List<Long>> validDecisions = new HashMap<>();
    int decisionRecords = 0;
    int rewardRecords = 0;
    for (Event e : session) {
      clock += e.delayMillis();
      String requestId = "r" + e.request();
      switch (e.kind()) {
        case DECISION -> {
          log.requests.pipeInput(record(decision(requestId, e.arm(), e.step()), clock));
          decisionRecords++;
          if (e.arm() >= 0 && e.arm() < BanditTopologyTest.DROP.arms() && e.step() == 0) {
            validDecisions.computeIfAbsent(requestId, id -> new ArrayList<>()).add(clock);
          }
        }
        case REWARD -> {
          log.rewards.pipeInput(record(DpSerdes.reward().encode(
              Reward.newBuilder().setRequestId(requestId).setReward(e.reward()).build()), clock));
          rewardRecords++;
        }
        case GARBAGE_DECISION -> {
          log.requests.pipeInput(record(new byte[] {(byte) e.request(), 1, 2}, clock));
          decisionRecords++;
        }
        case GARBAGE_REWARD -> {
          log.rewards.pipeInput(record(new byte[] {(byte) e.request(), 3}, clock));
          rewardRecords++;
        }
      }
    }
    // Past every deadline, hold and purge time: whatever waits is resolved before this record is handled.
    log.requests.pipeInput(record(decision("flush", 0, 0), clock + 3 * TIMEOUT_MS + 1));

    List<TestRecord<String, RejectedRecord>> rejectionRecords = log.rejected.readRecordsToList();
    List<RejectedRecord> rejections = rejectionRecords.stream().map(TestRecord::value).toList();
    // A reward is unknown only if no valid decision of its request came within the reward timeout of it, before or
    // after: a reward that came first waited for its decision.
    for (TestRecord<String, RejectedRecord> unknown : rejectionRecords) {
      if (!unknown.value().getReason().equals("UNKNOWN_REQUEST")) {
        continue;
      }
      byte[] original = new byte[unknown.value().getOriginalValue().remaining()];
      unknown.value().getOriginalValue().duplicate().get(original);
      String requestId = DpSerdes.reward().decodeOrThrow(original).getRequestId();
      long at = unknown.timestamp();
      assertTrue(validDecisions.getOrDefault(requestId, List.of()).stream()
              .noneMatch(t -> Math.abs(t - at) < TIMEOUT_MS),
          "reward of " + requestId + " at " + at + " rejected as unknown; valid decisions at "
              + validDecisions.get(requestId));
    }
    assertTrue(rejections.stream().noneMatch(r -> r.getReason().equals("PROCESSING_ERROR")), rejections::toString);
    String rewardTopic = log.topics.rewards().name();
    String decisionTopic = log.topics.decided().name();
    long rejectedRewards = rejections.stream().filter(r -> r.getSourceTopic().equals(rewardTopic)).count();
    long rejectedDecisions = rejections.stream().filter(r -> r.getSourceTopic().equals(decisionTopic)).count();
    assertEquals(rejections.size(), rejectedRewards + rejectedDecisions, "every rejection names where it was read");
    long joined = (long) log.count("dpstream.bandit.rewards.joined");
    long expired = (long) log.count("dpstream.bandit.rewards.expired");
    assertEquals(rewardRecords, joined + rejectedRewards, "each reward: one round or one rejection");
    assertEquals(decisionRecords, joined + expired + rejectedDecisions,
        "each logged decision: one rejection, one round or one expiry");
    for (ModelRelease release : log.releases.readValuesToList()) {
      assertTrue(release.getParameters().stream().allMatch(Double::isFinite), release::toString);
    }
  }

  private static byte[] decision(String requestId, int arm, long step) {
    return DpSerdes.decidedRequest().encode(DecidedRequest.newBuilder()
        .setDecision(DecisionResponse.newBuilder().setRequestId(requestId).setArm(arm).setModelStep(step)
            .setPhase(DecisionPhase.WARM_UP).build())
        .setContext(Arrays.stream(BanditTopologyTest.context(requestId.hashCode())).boxed().toList())
        .build());
  }

  private static TestRecord<byte[], byte[]> record(byte[] value, long timestamp) {
    return new TestRecord<>(BANDIT.getBytes(StandardCharsets.UTF_8), value, null, timestamp);
  }
}
