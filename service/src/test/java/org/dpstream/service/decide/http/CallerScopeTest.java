package org.dpstream.service.decide.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpMethod;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.dpstream.service.bandit.Caller;
import org.dpstream.service.serde.DpSerdes;

/**
 * Request ids are scoped to their caller: what the API answers caller B (status and body) does not depend on caller
 * A's requests, for any request id A used, with any context, whatever became of A's writes; and B's records name B,
 * so its reward joins nothing of A's. A's own retries still get A's remembered decision.
 */
class CallerScopeTest {

  private static final Caller ALICE = new Caller("alice");
  private static final Caller BOB = new Caller("bob");

  /** What A did with the request id before B used it. */
  enum Before {
    /** Nothing: A never used the id. */
    NOTHING,
    /** A decided it; the records were acknowledged. */
    DECIDED,
    /** A decided it; its decision log write failed (unscoped, a reward of the id would be refused). */
    DECIDED_LOG_FAILED,
    /** A decided it and sent its reward. */
    DECIDED_AND_REWARDED
  }

  /** One instance of the deciders, answering through the API's own code, its writes acknowledged by the test. */
  private static final class World {
    final OffersDecisions decisions = new OffersDecisions(false);
    final MockProducer<String, byte[]> producer = decisions.producer;
    final DecisionApi api = new DecisionApi(decisions.service);

    void release(long step) {
      decisions.release(step);
    }

    /** Status and body of the answer to {@code caller}'s POST to {@code path}. */
    String ask(Caller caller, String path, String body) {
      ByteBuf in = Unpooled.copiedBuffer(body, StandardCharsets.UTF_8);
      ByteBuf out = Unpooled.buffer();
      try {
        int status = api.answer(caller, HttpMethod.POST, "/v1/bandits/offers/" + path, in, out, System.nanoTime());
        return status + " " + out.toString(StandardCharsets.UTF_8);
      } finally {
        in.release();
        out.release();
      }
    }

    String decide(Caller caller, String requestId, List<Double> context) {
      return ask(caller, "decide", "{\"requestId\": " + quoted(requestId) + ", \"context\": [" + context.get(0) + ", "
          + context.get(1) + "]}");
    }

    String reward(Caller caller, String requestId, double reward) {
      return ask(caller, "reward", "{\"requestId\": " + quoted(requestId) + ", \"reward\": " + reward + "}");
    }

    /** Acknowledges the records handed so far (failing the first, if asked) and those their acknowledgement sends. */
    void settle(boolean failFirst) {
      if (failFirst) {
        producer.errorNext(new RuntimeException("broker gone"));
      }
      while (producer.completeNext()) {
        // every record handed over, the rewards queued behind their decisions included
      }
    }

    /** The callers named by the records written for the request id (decision log, dp.decisions, dp.rewards). */
    List<String> callersOf(String requestId) {
      return producer.history().stream().map(record -> callerOf(record, requestId))
          .filter(caller -> caller != null).toList();
    }

    private static String callerOf(ProducerRecord<String, byte[]> record, String requestId) {
      return switch (record.topic()) {
        case "dp.contexts.decided" -> {
          var decided = DpSerdes.decidedRequest().decodeOrThrow(record.value()).getDecision();
          yield decided.getRequestId().equals(requestId) ? String.valueOf(decided.getCaller()) : null;
        }
        case "dp.decisions" -> {
          var decision = DpSerdes.decisionResponse().decodeOrThrow(record.value());
          yield decision.getRequestId().equals(requestId) ? String.valueOf(decision.getCaller()) : null;
        }
        case "dp.rewards" -> {
          var reward = DpSerdes.reward().decodeOrThrow(record.value());
          yield reward.getRequestId().equals(requestId) ? String.valueOf(reward.getCaller()) : null;
        }
        default -> null;
      };
    }
  }

  private static String quoted(String text) {
    ByteBuf out = Unpooled.buffer();
    JsonAnswers.string(out, text);
    String json = out.toString(StandardCharsets.UTF_8);
    out.release();
    return json;
  }

  @Provide
  Arbitrary<List<Double>> contexts() {
    Arbitrary<Double> value = Arbitraries.oneOf(Arbitraries.of(0.0, -0.0, 1.0, -2.0),
        Arbitraries.doubles().between(-10, 10));
    return value.list().ofSize(2);
  }

  @Provide
  Arbitrary<String> requestIds() {
    return Arbitraries.strings().ofMinLength(1).ofMaxLength(12).withCharRange('\u0000', '\u00ff');
  }

  /**
   * B's decision and reward for an id A used (or not): the same answers, byte for byte, as in a world where A never
   * used it; B's records name B. A's context may equal B's (unscoped, B would have been handed A's decision) or not
   * (unscoped, B would have been refused 409).
   */
  @Property(tries = 300, seed = "4111")
  void whatBIsAnsweredDoesNotDependOnWhatADidWithTheSameId(@ForAll("requestIds") String requestId,
      @ForAll("contexts") List<Double> contextOfA, @ForAll("contexts") List<Double> contextOfB,
      @ForAll boolean sameContext, @ForAll Before before, @ForAll @DoubleRange(min = 0, max = 1) double reward) {
    List<Double> contextB = sameContext ? contextOfA : contextOfB;
    World withA = new World();
    World withoutA = new World();
    for (World world : List.of(withA, withoutA)) {
      world.release(3);
    }
    if (before != Before.NOTHING) {
      assertTrue(withA.decide(ALICE, requestId, contextOfA).startsWith("200 "));
      withA.settle(before == Before.DECIDED_LOG_FAILED);
      if (before == Before.DECIDED_AND_REWARDED) {
        assertTrue(withA.reward(ALICE, requestId, 0.5).startsWith("200 "));
        withA.settle(false);
      }
    }
    for (World world : List.of(withA, withoutA)) {
      world.release(7); // the release moves on: a remembered decision would show the older step
    }
    String decidedWithA = withA.decide(BOB, requestId, contextB);
    assertEquals(withoutA.decide(BOB, requestId, contextB), decidedWithA);
    assertTrue(decidedWithA.startsWith("200 ") && decidedWithA.contains("\"modelStep\":7"), decidedWithA);
    withA.settle(false);
    withoutA.settle(false);
    String rewardedWithA = withA.reward(BOB, requestId, reward);
    assertEquals(withoutA.reward(BOB, requestId, reward), rewardedWithA);
    assertTrue(rewardedWithA.startsWith("200 "), rewardedWithA);
    withA.settle(false);
    withoutA.settle(false);
    List<String> ofA = before == Before.NOTHING ? List.of() : before == Before.DECIDED_AND_REWARDED
        ? List.of("alice", "alice", "alice") : List.of("alice", "alice");
    List<String> expected = new java.util.ArrayList<>(ofA);
    expected.addAll(List.of("bob", "bob", "bob"));
    assertEquals(expected, withA.callersOf(requestId), "B's records name B: its reward joins B's decision only");
    assertEquals(List.of("bob", "bob", "bob"), withoutA.callersOf(requestId));
  }

  /** A's own retry is answered from A's memory, whatever B did with the id meanwhile. */
  @Property(tries = 100, seed = "4112")
  void aCallersRetryGetsItsRememberedDecision(@ForAll("requestIds") String requestId,
      @ForAll("contexts") List<Double> contextOfA, @ForAll("contexts") List<Double> contextOfB,
      @ForAll("contexts") List<Double> otherContext) {
    World world = new World();
    world.release(3);
    String first = world.decide(ALICE, requestId, contextOfA);
    world.settle(false);
    world.release(7);
    assertTrue(world.decide(BOB, requestId, contextOfB).contains("\"modelStep\":7"));
    assertEquals(first, world.decide(ALICE, requestId, contextOfA), "same request, same decision");
    if (!sameContext(contextOfA, otherContext)) {
      assertTrue(world.decide(ALICE, requestId, otherContext).startsWith("409 "), "its own id with another context");
    }
  }

  private static boolean sameContext(List<Double> a, List<Double> b) {
    for (int i = 0; i < a.size(); i++) {
      if (!(a.get(i) == 0.0 && b.get(i) == 0.0) && Double.doubleToLongBits(a.get(i)) != Double.doubleToLongBits(b.get(i))) {
        return false;
      }
    }
    return true;
  }
}
