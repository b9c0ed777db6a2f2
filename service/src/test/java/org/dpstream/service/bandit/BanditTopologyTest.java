package org.dpstream.service.bandit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.hdb.DpHdbPolicy;
import org.dpstream.bandit.linear.DpLinearPolicy;
import org.dpstream.bandit.linear.DpLinearSpec;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.schemas.DecisionPhase;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.schemas.Reward;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.metrics.BanditMetrics;
import org.dpstream.service.metrics.MicrometerBanditMetrics;
import org.dpstream.service.noise.NoiseContext;
import org.dpstream.service.routing.PlacedState;
import org.dpstream.service.routing.Placement;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.testing.TestNoiseKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bandit sub-topology on a TopologyTestDriver: decide, join, learn, expire, reject. */
class BanditTopologyTest {

  static final int D = 3;
  static final long TIMEOUT_MS = 10_000;
  /** Dropped when expired; t0 = 4 so a short stream reaches the greedy phase. */
  static final BanditConfig DROP = new BanditConfig("drop-bandit", D, 2, "identity", 1.0, "0.1", 4L, 1, 1e-5, 200,
      1.0, 1.0, "10s", "drop", null, 1);
  /** Imputes reward 0 when expired; releases every second round. */
  static final BanditConfig IMPUTE = new BanditConfig("impute-bandit", D, 3, "identity", 1.0, "inf", 2L, 1, 1e-5, 200,
      1.0, 1.0, "10s", "impute", 0.0, 2);
  /** DP-Linear, statistics released every fourth round. */
  static final BanditConfig LINEAR = new BanditConfig("linear-bandit", D, 2, null, null, null, null, 1, 1e-5, 200,
      null, 1.0, "10s", "drop", null, 1, "dp-linear", null, 4, null);
  static final ServiceConfig CONFIG =
      new ServiceConfig("bandit-test", null, List.of(), Map.of(), 0, List.of(DROP, IMPUTE, LINEAR))
          // The test driver runs every topic as one partition.
          .withRoutingPartitions(1);

  /** The noise a bandit of this test draws: the key's, scoped by the bandit's placement. */
  static KeyedNoiseSource noiseOf(String banditId) {
    return Placement.of(banditId, CONFIG.routingPartitions()).noise(new KeyedNoiseSource(key()));
  }

  @TempDir Path stateDir;

  static NoiseKey key() {
    return TestNoiseKeys.arithmetic(5, 3);
  }

  static double[] context(int i) {
    return new double[] {Math.sin(0.7 * i), Math.cos(1.3 * i), 0.5 * Math.sin(0.2 * i + 1)};
  }

  static double reward(int i) {
    return 0.6 * Math.sin(0.7 * i) - 0.3 * Math.cos(1.3 * i);
  }

  /** A TopologyTestDriver around the bandit topology. */
  final class Fixture extends BanditDriver {
    final BanditRegistry registry = CONFIG.banditRegistry();

    Fixture(BanditMetrics metrics) {
      this(metrics, CONFIG.routingPartitions());
    }

    /** With {@code routingPartitions} > 1 the driver still delivers every routed record to partition 0. */
    Fixture(BanditMetrics metrics, int routingPartitions) {
      super(stateDir, "bandit-test", metrics, routingPartitions, BanditTopology.Deciding.IN_TOPOLOGY);
    }

    void apply(String bandit, BanditReference.Event event) {
      if (event.isContext()) {
        context(bandit, event.timestamp(), event.requestId(), event.context());
      } else {
        reward(bandit, event.timestamp(), event.requestId(), event.reward());
      }
    }

    List<String> rejectionReasons() {
      return rejected.readValuesToList().stream().map(RejectedRecord::getReason).toList();
    }

  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static double[] parameters(ModelRelease release) {
    return release.getParameters().stream().mapToDouble(Double::doubleValue).toArray();
  }

  @Test
  void aContextIsDecidedAndItsRewardIsOneRoundOfEveryArm() {
    BanditRegistry.Entry entry = CONFIG.banditRegistry().find("drop-bandit").orElseThrow();
    DpHdbPolicy direct = DpHdbPolicy.start(entry.hdb(), noiseOf(entry.spec().banditId()));
    try (Fixture fixture = new Fixture(BanditMetrics.NONE)) {
      fixture.context("drop-bandit", 1_000, "req-1", context(1));
      TestRecord<String, DecisionResponse> decision = fixture.decisions.readRecord();
      assertEquals("drop-bandit", decision.key());
      assertEquals("req-1", decision.value().getRequestId());
      assertEquals(0, decision.value().getArm()); // warm-up: round 0 pulls arm 0
      assertEquals(DecisionPhase.WARM_UP, decision.value().getPhase());
      assertEquals(0, decision.value().getModelStep());
      assertTrue(fixture.releases.isEmpty(), "no round before the reward");

      fixture.reward("drop-bandit", 2_000, "req-1", reward(1));
      direct.update(new Decision(0, Decision.Phase.WARM_UP, 0), context(1), reward(1));
      List<TestRecord<String, ModelRelease>> released = fixture.releases.readRecordsToList();
      assertEquals(2, released.size(), "one release per arm");
      for (int arm = 0; arm < 2; arm++) {
        ModelRelease release = released.get(arm).value();
        assertEquals("drop-bandit/arm-" + arm, released.get(arm).key());
        assertEquals("drop-bandit/arm-" + arm, release.getModelId());
        assertEquals(1, release.getStep());
        assertArrayEquals(direct.armParameters(arm), parameters(release));
        assertTrue(release.getAlgorithm().startsWith("dp-hdb/dp-pofw"), release.getAlgorithm());
        assertEquals(1.0, release.getLedger().getEpsilon());
        assertEquals(direct.privacySpent().epsilon(), release.getLedger().getEpsilonSpent());
      }
      assertTrue(fixture.rejected.isEmpty());
    }
  }

  @Test
  void aDpLinearBanditDecidesAndReleasesItsRidgeSolutionsEveryKRounds() {
    BanditRegistry.Entry entry = CONFIG.banditRegistry().find(LINEAR.id()).orElseThrow();
    DpLinearPolicy direct = DpLinearPolicy.start((DpLinearSpec) entry.spec(), noiseOf(LINEAR.id()));
    try (Fixture fixture = new Fixture(BanditMetrics.NONE)) {
      for (int i = 0; i < 8; i++) {
        fixture.context(LINEAR.id(), 1_000 + i, "req-" + i, context(i));
        DecisionResponse decision = fixture.decisions.readValue();
        Decision expected = direct.decide(context(i));
        assertEquals(expected.arm(), decision.getArm());
        assertEquals(DecisionPhase.GREEDY, decision.getPhase());
        fixture.reward(LINEAR.id(), 1_000 + i, "req-" + i, reward(i));
        direct.update(expected, context(i), reward(i));
        List<TestRecord<String, ModelRelease>> released = fixture.releases.readRecordsToList();
        if ((i + 1) % 4 != 0) {
          assertTrue(released.isEmpty(), "round " + (i + 1));
          continue;
        }
        assertEquals(2, released.size(), "one release per arm");
        for (int arm = 0; arm < 2; arm++) {
          ModelRelease release = released.get(arm).value();
          assertEquals(LINEAR.id() + "/arm-" + arm, release.getModelId());
          assertEquals((i + 1) / 4, release.getStep());
          assertArrayEquals(direct.armParameters(arm), parameters(release));
          assertTrue(release.getAlgorithm().startsWith("dp-linear/zcdp"), release.getAlgorithm());
          assertEquals(direct.privacySpent().epsilon(), release.getLedger().getEpsilonSpent());
        }
      }
      assertTrue(fixture.rejected.isEmpty());
    }
  }

  /**
   * A fixed stream with rewards answered out of order, some late, some never, and junk in between:
   * the decisions and releases equal those of the policy (DP-HDB or DP-Linear) run directly (the
   * reference), record for record.
   */
  @Test
  void decisionsAndReleasesEqualThePolicyRunDirectly() {
    for (BanditConfig config : List.of(DROP, IMPUTE, LINEAR)) {
      BanditRegistry.Entry entry = CONFIG.banditRegistry().find(config.id()).orElseThrow();
      List<BanditReference.Event> events = stream(300, 41);
      BanditReference reference = new BanditReference(entry, noiseOf(entry.spec().banditId()));
      events.forEach(reference::accept);
      try (Fixture fixture = new Fixture(BanditMetrics.NONE)) {
        events.forEach(e -> fixture.apply(config.id(), e));
        List<DecisionResponse> decisions = fixture.decisions.readValuesToList();
        List<ModelRelease> releases = fixture.releases.readValuesToList();
        assertEquals(reference.decisions(), decisions, config.id());
        assertEquals(encoded(reference.releases()), encoded(releases), config.id());
        assertTrue(reference.expired() > 5 && reference.joined() > 100,
            "the stream exercises both paths: " + reference.expired() + " expired, " + reference.joined() + " joined");
        assertTrue(decisions.stream().anyMatch(d -> d.getPhase() == DecisionPhase.GREEDY));
        assertTrue(decisions.stream().map(DecisionResponse::getArm).distinct().count() > 1);
      }
    }
  }

  /**
   * Expiry keeps a lower bound of the due times instead of the earliest one: a context or reward that
   * arrives with an old timestamp (its deadline already behind the bandit's stream time) must still be
   * expired on the next record, and a completion marker due as soon as it is made must be purged, as the
   * reference does.
   */
  @Test
  void lateRecordsExpireOnTheNextRecordAsInTheReference() {
    for (BanditConfig config : List.of(DROP, IMPUTE, LINEAR)) {
      BanditRegistry.Entry entry = CONFIG.banditRegistry().find(config.id()).orElseThrow();
      List<BanditReference.Event> events = new ArrayList<>();
      List<BanditReference.Event> inOrder = stream(300, 43);
      for (int i = 0; i < inOrder.size(); i++) {
        BanditReference.Event e = inOrder.get(i);
        // Every 9th event comes 1.5 timeouts late: such a context's deadline has passed when it arrives (it is
        // refused as stale), such a reward finds its request expired or, in time, joins it.
        long timestamp = i % 9 == 4 ? Math.max(0, e.timestamp() - 3 * TIMEOUT_MS / 2) : e.timestamp();
        events.add(new BanditReference.Event(timestamp, e.requestId(), e.context(), e.reward()));
      }
      // The stream's last record jumps 3 timeouts ahead: r297 (never answered) expires and its completion
      // marker, due at once, is purged in the same pass, so its request id is free again.
      long end = inOrder.get(inOrder.size() - 1).timestamp();
      events.add(BanditReference.Event.context(end + 1, "r297", context(1)));
      events.add(BanditReference.Event.reward(end + 2, "r297", reward(1)));
      BanditReference reference = new BanditReference(entry, noiseOf(entry.spec().banditId()));
      events.forEach(reference::accept);
      try (Fixture fixture = new Fixture(BanditMetrics.NONE)) {
        events.forEach(e -> fixture.apply(config.id(), e));
        assertEquals(reference.decisions(), fixture.decisions.readValuesToList(), config.id());
        assertEquals(encoded(reference.releases()), encoded(fixture.releases.readValuesToList()), config.id());
        assertTrue(reference.expired() > 20 && reference.joined() > 100,
            "the stream exercises both paths: " + reference.expired() + " expired, " + reference.joined() + " joined");
      }
    }
  }

  static List<String> encoded(List<ModelRelease> releases) {
    return releases.stream().map(r -> java.util.HexFormat.of().formatHex(DpSerdes.modelRelease().encode(r))).toList();
  }

  /**
   * Contexts every 100 ms; request i is answered after a lag of 1 to 40 contexts (4 s at most, some
   * overtaking others), every 7th is never answered and so expires after 10 s of stream time.
   */
  static List<BanditReference.Event> stream(int n, long seed) {
    java.util.SplittableRandom random = new java.util.SplittableRandom(seed); // simulation only
    List<long[]> answers = new ArrayList<>();
    List<BanditReference.Event> events = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (i % 7 != 3) {
        answers.add(new long[] {i * 100L + 100L * (1 + random.nextInt(40)) + 50, i});
      }
    }
    answers.sort((a, b) -> Long.compare(a[0], b[0]));
    int next = 0;
    for (int i = 0; i < n; i++) {
      long t = i * 100L;
      while (next < answers.size() && answers.get(next)[0] < t) {
        long[] a = answers.get(next++);
        events.add(BanditReference.Event.reward(a[0], "r" + a[1], reward((int) a[1])));
      }
      events.add(BanditReference.Event.context(t, "r" + i, context(i)));
    }
    // Then time passes (a context of another request far later) so the rest expire.
    events.add(BanditReference.Event.context(n * 100L + 3 * TIMEOUT_MS, "tail", context(n)));
    return events;
  }

  @Test
  void aDecisionWithoutRewardExpiresOnStreamTimeAndIsDroppedOrImputed() {
    BanditRegistry.Entry imputeEntry = CONFIG.banditRegistry().find("impute-bandit").orElseThrow();
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    try (Fixture fixture = new Fixture(new MicrometerBanditMetrics(meters))) {
      for (String bandit : List.of("drop-bandit", "impute-bandit")) {
        fixture.context(bandit, 0, "a", context(1));
        fixture.context(bandit, 1_000, "b", context(2));
        // Stream time 9.999 s: nothing has expired yet, so a's reward still joins.
        fixture.reward(bandit, 9_999, "a", reward(1));
        // Stream time 11 s passes b's deadline (1 s + 10 s): b expires before this record is handled.
        fixture.context(bandit, 11_000, "c", context(3));
        fixture.reward(bandit, 11_001, "b", reward(2));
      }
      assertEquals(List.of("EXPIRED_REQUEST", "EXPIRED_REQUEST"), fixture.rejectionReasons());
      List<TestRecord<String, ModelRelease>> releases = fixture.releases.readRecordsToList();
      // drop-bandit: one round (a), 2 arms; impute-bandit: rounds a and b (imputed), released at round 2, 3 arms.
      assertEquals(2 + 3, releases.size());
      DpHdbPolicy direct = DpHdbPolicy.start(imputeEntry.hdb(), noiseOf(imputeEntry.spec().banditId()));
      Decision first = direct.decide(context(1));
      Decision second = direct.decide(context(2));
      direct.update(first, context(1), reward(1));
      direct.update(second, context(2), 0.0); // the configured default reward
      for (int arm = 0; arm < 3; arm++) {
        ModelRelease release = releases.get(2 + arm).value();
        assertEquals("impute-bandit/arm-" + arm, release.getModelId());
        assertEquals(2, release.getStep());
        assertArrayEquals(direct.armParameters(arm), parameters(release));
      }
      assertEquals(1.0, meters.get("dpstream.bandit.rewards.expired").tag("bandit", "drop-bandit")
          .tag("policy", "drop").counter().count());
      assertEquals(1.0, meters.get("dpstream.bandit.rewards.expired").tag("bandit", "impute-bandit")
          .tag("policy", "impute").counter().count());
      assertEquals(2.0, meters.get("dpstream.bandit.rewards.joined").counters().stream()
          .mapToDouble(c -> c.count()).sum());
    }
  }

  /**
   * A request is learnt at most once: a context decided again long after its request was learnt (its completion
   * marker purged, as after the decider group re-read dp.contexts) is refused as stale, not imputed a second time. The
   * boundary: a context whose deadline equals the stream time is stale, one a millisecond later is learnt.
   */
  @Test
  void aContextWhoseDeadlineHasPassedIsRefusedAndNotLearntAgain() {
    String bandit = IMPUTE.id();
    try (Fixture fixture = new Fixture(BanditMetrics.NONE)) {
      fixture.context(bandit, 0, "a", context(1));
      fixture.context(bandit, TIMEOUT_MS, "b", context(2)); // a expires: imputed, round 1
      fixture.context(bandit, 3 * TIMEOUT_MS, "c", context(3)); // b imputed (round 2); a's marker purged at 2 T
      assertEquals(2, lastStep(fixture.releases.readValuesToList()));
      fixture.context(bandit, 0, "a", context(1)); // a decided again from the start of dp.contexts
      fixture.context(bandit, 2 * TIMEOUT_MS, "d", context(4)); // deadline 3 T = stream time: stale too
      assertEquals(List.of("STALE_DECISION", "STALE_DECISION"), fixture.rejectionReasons());
      fixture.context(bandit, 2 * TIMEOUT_MS + 1, "e", context(5)); // deadline past the stream time: decided
      assertEquals(List.of("a", "b", "c", "e"),
          fixture.decisions.readValuesToList().stream().map(DecisionResponse::getRequestId).toList());
      fixture.context(bandit, 6 * TIMEOUT_MS, "tick", context(6)); // c and e expire: imputed
      assertEquals(4, lastStep(fixture.releases.readValuesToList()), "a, b, c and e, each once");
      assertTrue(fixture.rejected.isEmpty());
    }
  }

  private static long lastStep(List<ModelRelease> releases) {
    return releases.stream().mapToLong(ModelRelease::getStep).max().orElse(0);
  }

  @Test
  void duplicatesUnknownIdsAndBadInputAreRejectedAndNothingCountsTwice() {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    try (Fixture fixture = new Fixture(new MicrometerBanditMetrics(meters))) {
      String b = "drop-bandit";
      fixture.context(b, 0, "x", context(1));
      fixture.context(b, 10, "x", context(2)); // duplicate request id
      fixture.reward(b, 20, "nobody", 0.5); // unknown request
      fixture.reward(b, 30, "x", 0.5); // joins
      fixture.reward(b, 40, "x", 0.7); // duplicate reward
      fixture.context(b, 50, "short", new double[] {1, 2}); // wrong dimension
      fixture.context(b, 60, "nan", new double[] {0.1, Double.NaN, 0.2}); // NaN in Avro
      fixture.rewards.pipeInput(new TestRecord<>(bytes(b), bytes("{\"requestId\":\"x\",\"reward\":\"NaN\"}"), null, 61L)); // a string
      fixture.requests.pipeInput(new TestRecord<>(bytes(b), bytes("not json"), null, 70L));
      fixture.context("no-such-bandit", 80, "y", context(1));
      fixture.requests.pipeInput(new TestRecord<>((byte[]) null, bytes("{}"), null, 90L));
      fixture.context(b, 100, "", context(1));
      // Long after: x's completion marker is purged (deadline + timeout), so its id is unknown by then.
      fixture.context(b, 25_000, "later", context(3));
      fixture.reward(b, 25_001, "x", 0.5);

      assertEquals(List.of("DUPLICATE_REQUEST", "UNKNOWN_REQUEST", "DUPLICATE_REWARD", "WRONG_DIMENSION",
          "NON_FINITE_NUMBER", "WRONG_TYPE", "UNDECODABLE", "UNKNOWN_BANDIT", "MISSING_KEY",
          "MISSING_REQUEST_ID", "UNKNOWN_REQUEST"), fixture.rejectionReasons());
      assertEquals(List.of("x", "later"),
          fixture.decisions.readValuesToList().stream().map(DecisionResponse::getRequestId).toList());
      List<ModelRelease> releases = fixture.releases.readValuesToList();
      assertEquals(2, releases.size(), "exactly one round: " + releases);
      assertTrue(releases.stream().allMatch(r -> r.getStep() == 1));
      assertEquals(1.0, meters.get("dpstream.bandit.rewards.joined").counter().count());
      assertEquals(0.5, meters.get("dpstream.bandit.reward.cumulative").gauge().value());
      Map<String, Double> byReason = meters.find("dpstream.bandit.rejected.by.reason").counters().stream()
          .collect(Collectors.toMap(c -> c.getId().getTag("bandit") + ":" + c.getId().getTag("reason"),
              c -> c.count()));
      assertEquals(2.0, byReason.get("drop-bandit:UNKNOWN_REQUEST"));
      assertEquals(1.0, byReason.get(MicrometerBanditMetrics.UNKNOWN_BANDIT + ":UNKNOWN_BANDIT"));
      double allReasons = byReason.values().stream().mapToDouble(Double::doubleValue).sum();
      assertEquals(allReasons, meters.find("dpstream.bandit.rejected").counters().stream()
          .mapToDouble(c -> c.count()).sum(), "the public count is every reason's");
    }
  }

  /** A bandit's records outside its home partition, or a state created elsewhere, change nothing. */
  @Test
  void aRecordOutsideItsHomeOrAForeignStateIsRejectedAndStartsNothing() {
    int partitions = 2;
    while (Placement.of(DROP.id(), partitions).partition() == 0) {
      partitions++;
    }
    try (Fixture fixture = new Fixture(BanditMetrics.NONE, partitions)) {
      fixture.context(DROP.id(), 1000, "r1", context(1));
      fixture.reward(DROP.id(), 1001, "r1", 0.5);
      assertEquals(List.of(BanditRejection.MISPLACED_RECORD.name(), BanditRejection.MISPLACED_RECORD.name()),
          fixture.rejectionReasons());
      assertTrue(fixture.decisions.isEmpty());
      assertEquals(null, fixture.driver.getKeyValueStore(BanditTopology.STATE_STORE).get(DROP.id()));
    }
    byte[] foreign = PlacedState.stamp(new Placement(1, 2), new byte[] {1, 2, 3});
    try (Fixture fixture = new Fixture(BanditMetrics.NONE)) {
      fixture.driver.<String, byte[]>getKeyValueStore(BanditTopology.STATE_STORE).put(DROP.id(), foreign);
      fixture.context(DROP.id(), 1000, "r1", context(1));
      assertEquals(List.of(BanditRejection.MISPLACED_STATE.name()), fixture.rejectionReasons());
      assertTrue(fixture.decisions.isEmpty());
      assertArrayEquals(foreign,
          fixture.driver.<String, byte[]>getKeyValueStore(BanditTopology.STATE_STORE).get(DROP.id()));
    }
  }

  /** A poison pill: a context of 1e200 is decided on the clipped context and its reward is learnt. */
  @Test
  void aHugeFiniteContextIsDecidedAndItsRewardLearnt() {
    try (Fixture f = new Fixture(BanditMetrics.NONE)) {
      f.context(DROP.id(), 1_000, "huge", new double[] {1e200, 0.1, 0.1});
      f.reward(DROP.id(), 1_100, "huge", 0.5);
      f.context(DROP.id(), 1_200, "max", new double[] {Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_VALUE});
      f.reward(DROP.id(), 1_300, "max", Double.MAX_VALUE);
      assertEquals(2, f.decisions.readValuesToList().size());
      assertTrue(f.rejected.isEmpty());
      List<ModelRelease> released = f.releases.readValuesToList();
      assertEquals(2 * DROP.arms(), released.size(), "one release per arm per round");
      released.forEach(r -> assertTrue(r.getParameters().stream().allMatch(Double::isFinite)));
    }
  }

  /**
   * A bandit whose processing throws (here: a state this build cannot read) rejects its records as
   * PROCESSING_ERROR, counted per bandit, and the other bandits go on; nothing escapes the driver.
   */
  @Test
  void aBanditThatThrowsRejectsItsRecordsAndTheOthersGoOn() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (Fixture f = new Fixture(new MicrometerBanditMetrics(registry))) {
      // In its home placement, but not a state this build can read.
      f.driver.<String, byte[]>getKeyValueStore(BanditTopology.STATE_STORE)
          .put(DROP.id(), PlacedState.stamp(Placement.of(DROP.id(), CONFIG.routingPartitions()), new byte[] {9, 9, 9}));
      f.context(DROP.id(), 1_000, "r1", context(1));
      f.context(IMPUTE.id(), 1_000, "r1", context(1));
      f.context(DROP.id(), 2_000, "r2", context(2));
      f.context(IMPUTE.id(), 2_000, "r2", context(2));

      List<RejectedRecord> rejected = f.rejected.readValuesToList();
      assertEquals(List.of("PROCESSING_ERROR", "PROCESSING_ERROR"), rejected.stream().map(RejectedRecord::getReason).toList());
      assertEquals("processing failed with java.lang.IllegalStateException caused by java.io.IOException",
          rejected.get(0).getMessage());
      assertEquals(List.of(IMPUTE.id(), IMPUTE.id()), f.decisions.readKeyValuesToList().stream().map(kv -> kv.key).toList());
      assertEquals(2.0, registry.get("dpstream.processing.errors").tag("model", DROP.id()).counter().count());
    }
  }

  @Test
  void namesArePinned() {
    String description = BanditTopology.build(CONFIG.banditRegistry(), Topics.defaults(), 6,
        new KeyedNoiseSource(key()), BanditMetrics.NONE).describe().toString();
    for (String name : List.of("contexts-source", "rewards-source", "bandit-routing-repartition", "bandit",
        "decisions-sink", "bandit-releases-sink", "bandit-rejected-sink", "bandit-state", "bandit-pending",
        "bandit-clock")) {
      assertTrue(description.contains(name), name + " in\n" + description);
    }
    // Routing, then the bandits: contexts and rewards meet in the routing topic, whatever their partitioning.
    assertEquals(2, BanditTopology.build(CONFIG.banditRegistry(), Topics.defaults(), 6, new KeyedNoiseSource(key()),
        BanditMetrics.NONE).describe().subtopologies().size());
  }

  /**
   * The deadline index is derived in memory from the pending store: the bandit's stores are its state, its pending
   * requests and its clock, with deciders or without, and no changelog is written for the index.
   */
  @Test
  void theBanditHasNoDeadlineStore() {
    for (BanditTopology.Deciding deciding : BanditTopology.Deciding.values()) {
      StreamsBuilder builder = new StreamsBuilder();
      BanditTopology.addTo(builder, CONFIG.banditRegistry(), Topics.defaults(), 6,
          NoiseContext.of(new KeyedNoiseSource(key())), BanditMetrics.NONE, deciding);
      Set<String> stores = builder.build().describe().subtopologies().stream()
          .flatMap(subtopology -> subtopology.nodes().stream())
          .filter(TopologyDescription.Processor.class::isInstance)
          .flatMap(node -> ((TopologyDescription.Processor) node).stores().stream())
          .collect(Collectors.toSet());
      assertEquals(Set.of(BanditTopology.STATE_STORE, BanditTopology.PENDING_STORE, BanditTopology.CLOCK_STORE),
          stores, deciding.name());
    }
  }
}
