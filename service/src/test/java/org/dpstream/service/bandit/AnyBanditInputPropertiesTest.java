package org.dpstream.service.bandit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import net.jqwik.api.statistics.Statistics;
import org.apache.kafka.streams.test.TestRecord;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.schemas.Reward;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.metrics.MicrometerBanditMetrics;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.testing.ExtremeValues;

/**
 * Arbitrary contexts and rewards (extreme finite doubles, NaN and infinities in JSON and Avro, wrong
 * lengths, duplicate and unknown request ids, late rewards) through the bandit topology: nothing escapes
 * the driver; each context yields exactly one decision or one rejection, each reward exactly one joined
 * round or one rejection, never a processing error; every well-formed finite context is decided, and
 * every release stays finite.
 */
class AnyBanditInputPropertiesTest {

  enum Encoding { AVRO, JSON_QUOTED, JSON_TOKENS }

  record Event(boolean isContext, String bandit, int slot, List<Double> context, double reward, Encoding encoding,
      long delayMillis) {}

  private final Topics topics = Topics.defaults();
  private Path stateDir;
  private SimpleMeterRegistry registry;
  private BanditDriver driver;
  private long clock = 1_000_000;
  private int tries;

  @BeforeProperty
  void start() throws IOException {
    stateDir = Files.createTempDirectory("any-bandit-input");
    registry = new SimpleMeterRegistry();
    driver = new BanditDriver(stateDir, "bandit-properties", new MicrometerBanditMetrics(registry),
        BanditTopologyTest.CONFIG.routingPartitions(), BanditTopology.Deciding.IN_TOPOLOGY);
  }

  @AfterProperty
  void stop() {
    driver.close();
    ExtremeValues.deleteRecursively(stateDir);
  }

  /**
   * Rounds of a context and, mostly, its reward (a reward may also name another round's request, come
   * late enough to find its request expired, or come twice), in either encoding.
   */
  @Provide
  Arbitrary<List<Event>> sessions() {
    Arbitrary<Double> value = ExtremeValues.doubles();
    Arbitrary<List<Double>> context = Arbitraries.frequencyOf(
        Tuple.of(8, value.list().ofSize(BanditTopologyTest.D)),
        Tuple.of(1, value.list().ofMaxSize(5)));
    Arbitrary<Integer> rewardsPerRound = Arbitraries.frequencyOf(
        Tuple.of(6, Arbitraries.just(1)), Tuple.of(1, Arbitraries.just(0)), Tuple.of(1, Arbitraries.just(2)));
    Arbitrary<List<Event>> round = Combinators.combine(
        Arbitraries.of(BanditTopologyTest.DROP.id(), BanditTopologyTest.IMPUTE.id(), BanditTopologyTest.LINEAR.id()),
        Arbitraries.integers().between(0, 3),
        context,
        value,
        Arbitraries.of(Encoding.class),
        Arbitraries.longs().between(0, 6_000),
        rewardsPerRound,
        Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.just(0)), Tuple.of(1, Arbitraries.just(1))))
        .as((bandit, slot, x, reward, encoding, delay, rewardCount, otherSlot) -> {
          List<Event> events = new java.util.ArrayList<>();
          events.add(new Event(true, bandit, slot, x, 0, encoding, delay));
          for (int i = 0; i < rewardCount; i++) {
            events.add(new Event(false, bandit, (slot + otherSlot) % 4, List.of(), reward, encoding, delay));
          }
          return events;
        });
    return round.list().ofMinSize(1).ofMaxSize(4).map(rounds -> rounds.stream().flatMap(List::stream).toList());
  }

  @Property(tries = 60, seed = "1212", edgeCases = EdgeCasesMode.NONE)
  void everyContextAndRewardHasExactlyOneOutcome(@ForAll("sessions") List<Event> session) {
    tries++;
    Set<String> decided = new HashSet<>();
    for (Event event : session) {
      String requestId = "try" + tries + "-" + event.bandit() + "-" + event.slot();
      double joinedBefore = joined(event.bandit());
      clock += event.delayMillis();
      byte[] key = event.bandit().getBytes(StandardCharsets.UTF_8);
      (event.isContext() ? driver.requests : driver.rewards).pipeInput(new TestRecord<>(key, encode(event, requestId), null, clock));

      List<DecisionResponse> decided1 = driver.decisions.readValuesToList();
      List<RejectedRecord> rejections = driver.rejected.readValuesToList();
      long joinedNow = Math.round(joined(event.bandit()) - joinedBefore);
      int outcomes = decided1.size() + rejections.size() + (int) joinedNow;
      assertEquals(1, outcomes, () -> event + ": decisions " + decided1 + ", rejections " + rejections);
      if (event.isContext()) {
        assertEquals(0, joinedNow);
        boolean usable = event.context().size() == BanditTopologyTest.D && ExtremeValues.allFinite(event.context())
            && !decided.contains(requestId);
        assertEquals(usable, decided1.size() == 1, () -> event + " rejected as " + rejections);
        if (usable) {
          decided.add(requestId);
          int arms = event.bandit().equals(BanditTopologyTest.IMPUTE.id()) ? 3 : 2;
          assertTrue(decided1.get(0).getArm() >= 0 && decided1.get(0).getArm() < arms);
        }
      } else {
        assertEquals(0, decided1.size());
        if (!Double.isFinite(event.reward())) {
          assertEquals(1, rejections.size(), "a non-finite reward is rejected");
        }
      }
      for (RejectedRecord rejection : rejections) {
        assertNotEquals("PROCESSING_ERROR", rejection.getReason(), rejection.getMessage());
        Statistics.collect(rejection.getReason());
      }
      if (!decided1.isEmpty()) {
        Statistics.collect("decided");
      }
      if (joinedNow == 1) {
        Statistics.collect("joined");
      }
      for (ModelRelease release : driver.releases.readValuesToList()) {
        assertTrue(release.getParameters().stream().allMatch(Double::isFinite), () -> "finite release " + release);
      }
    }
    assertTrue(registry.find("dpstream.processing.errors").counters().isEmpty());
  }

  private double joined(String bandit) {
    Counter counter = registry.find("dpstream.bandit.rewards.joined").tag("bandit", bandit).counter();
    return counter == null ? 0 : counter.count();
  }

  private static byte[] encode(Event event, String requestId) {
    if (event.encoding() == Encoding.AVRO) {
      return event.isContext()
          ? DpSerdes.decisionRequest().encode(
              DecisionRequest.newBuilder().setRequestId(requestId).setContext(event.context()).build())
          : DpSerdes.reward().encode(Reward.newBuilder().setRequestId(requestId).setReward(event.reward()).build());
    }
    boolean quoted = event.encoding() == Encoding.JSON_QUOTED;
    String json = event.isContext()
        ? String.format(Locale.ROOT, "{\"requestId\": \"%s\", \"context\": %s}", requestId,
            ExtremeValues.jsonArray(event.context(), quoted))
        : String.format(Locale.ROOT, "{\"requestId\": \"%s\", \"reward\": %s}", requestId,
            ExtremeValues.json(event.reward(), quoted));
    return json.getBytes(StandardCharsets.UTF_8);
  }
}
