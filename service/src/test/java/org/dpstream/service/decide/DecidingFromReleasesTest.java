package org.dpstream.service.decide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.hdb.DpHdbPolicy;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.bandit.BanditReleases;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.decide.follower.ReleaseFollower;
import org.dpstream.service.decide.follower.ReleasedBandits;
import org.dpstream.service.release.BanditStepReleases;
import org.dpstream.service.serde.DpSerdes;
import org.junit.jupiter.api.Test;

/**
 * A decider fed the releases of a DP-HDB bandit decides exactly as the bandit's own policy at the released
 * step, however the arms' releases interleave, with every k-th round released, and never from a step
 * whose releases are incomplete.
 */
class DecidingFromReleasesTest {

  private static final int D = 4;

  private static BanditRegistry.Entry entry(int releaseEvery) {
    return new BanditConfig("follow", D, 3, "identity", 1.0, "0.3", 5L, 1, 1e-5, 2_000, 1.0, 1.0, "10s", "drop",
        null, releaseEvery).toEntry();
  }

  static KeyedNoiseSource noise() {
    byte[] material = new byte[NoiseKey.MINIMUM_BYTES];
    material[0] = 7;
    return new KeyedNoiseSource(NoiseKey.ofBytes(material));
  }

  static ConsumerRecord<String, byte[]> record(ModelRelease release) {
    return new ConsumerRecord<>("dp.releases", 0, 0, release.getModelId(), DpSerdes.modelRelease().encode(release));
  }

  static List<Double> boxed(double[] x) {
    List<Double> values = new ArrayList<>(x.length);
    for (double v : x) {
      values.add(v);
    }
    return values;
  }

  /** A step record: every arm of a step (and the extras published with it) in one record keyed by the bandit id. */
  static ConsumerRecord<String, byte[]> stepRecord(String banditId, int arms, List<ModelRelease> round) {
    return new ConsumerRecord<>("dp.releases", 0, 0, banditId,
        DpSerdes.banditStepRelease().encode(BanditStepReleases.of(banditId, arms, round)));
  }

  @Test
  void theDecisionFromTheLatestReleaseIsThePolicysOwnAtThatStep() throws Exception {
    checkAgainstPolicy(1, false, false);
  }

  @Test
  void armsReleasedInAnyOrderAndEveryThirdRoundStillGiveThePolicysDecisions() throws Exception {
    checkAgainstPolicy(3, true, false);
  }

  /** A step record is decided from as soon as it is read: nothing else is waited for. */
  @Test
  void theDecisionFromEachStepRecordIsThePolicysOwnAtThatStep() throws Exception {
    checkAgainstPolicy(1, false, true);
    checkAgainstPolicy(3, false, true);
  }

  private void checkAgainstPolicy(int releaseEvery, boolean shuffled, boolean asSteps) throws Exception {
    BanditRegistry.Entry entry = entry(releaseEvery);
    BanditRegistry registry = new BanditRegistry(Map.of("follow", entry));
    ReleasedBandits released = new ReleasedBandits();
    ReleaseFollower follower = new ReleaseFollower(null, "dp.releases", registry, released);
    Decider decider = new Decider(registry, released, noise());
    // The policy's own noise is irrelevant to the comparison: any source gives releases to decide from.
    DpHdbPolicy policy = DpHdbPolicy.start(entry.hdb(), noise().scoped("policy"));
    DpHdbPolicy atLastRelease = null;
    SplittableRandom random = new SplittableRandom(42); // simulation only
    List<ModelRelease> held = new ArrayList<>();
    int greedy = 0;
    for (int t = 0; t < 400; t++) {
      double[] x = {random.nextDouble(-1, 1), random.nextDouble(-1, 1), random.nextDouble(-1, 1), random.nextDouble()};
      if (atLastRelease != null || t == 0) {
        Decision expected = (atLastRelease == null ? policy : atLastRelease).decide(x);
        Decision decided = decider.decide("follow", "r" + t, boxed(x));
        assertEquals(expected, decided, "round " + t);
        greedy += decided.phase() == Decision.Phase.GREEDY ? 1 : 0;
      }
      Decision own = policy.decide(x);
      policy.update(own, x, x[0] * (own.arm() - 1));
      if (policy.rounds() % releaseEvery == 0) {
        held.addAll(BanditReleases.ofRound(policy, releaseEvery));
        atLastRelease = copy(policy);
        if (asSteps) {
          follower.apply(stepRecord("follow", entry.spec().arms(), held));
          held.clear();
        } else if (shuffled) {
          // Hold back a few rounds and deliver them in a random order, as partitions may.
          if (held.size() > 12) {
            Collections.shuffle(held, new java.util.Random(t)); // simulation only
            held.forEach(r -> follower.apply(record(r)));
            held.clear();
          } else {
            atLastRelease = null;
          }
        } else {
          held.forEach(r -> follower.apply(record(r)));
          held.clear();
        }
      }
    }
    assertTrue(greedy > 50, "the greedy phase must be covered: " + greedy);
  }

  private static DpHdbPolicy copy(DpHdbPolicy policy) throws Exception {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    policy.writeState(new java.io.DataOutputStream(bytes));
    return DpHdbPolicy.restore(policy.spec(),
        new java.io.DataInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray())), noise().scoped("policy"));
  }

  @Test
  void aStepIsDecidedFromOnlyOnceEveryArmAndTheForcedSamplingEstimatorsAreIn() {
    BanditRegistry.Entry entry = entry(1);
    BanditRegistry registry = new BanditRegistry(Map.of("follow", entry));
    ReleasedBandits released = new ReleasedBandits();
    ReleaseFollower follower = new ReleaseFollower(null, "dp.releases", registry, released);
    DpHdbPolicy policy = DpHdbPolicy.start(entry.hdb(), noise());
    double[] x = {0.1, 0.2, 0.3, 0.4};
    while (policy.phase() == Decision.Phase.WARM_UP) {
      policy.update(policy.decide(x), x, 0.5);
    }
    List<ModelRelease> round = BanditReleases.ofRound(policy, 1);
    assertEquals(4, round.size(), "3 arms and the forced-sampling estimators");
    for (int i = 0; i < round.size(); i++) {
      assertEquals(0, released.latest("follow").orElseThrow().step(), "incomplete after " + i + " records");
      follower.apply(record(round.get(i)));
    }
    assertEquals(policy.rounds(), released.latest("follow").orElseThrow().step());
    // The estimators never change after the warm-up: published again only once every 1000 rounds.
    policy.update(policy.decide(x), x, 0.5);
    assertEquals(3, BanditReleases.ofRound(policy, 1).size());
    follower.apply(record(BanditReleases.ofRound(policy, 1).get(0)));
    follower.apply(record(BanditReleases.ofRound(policy, 1).get(1)));
    follower.apply(record(BanditReleases.ofRound(policy, 1).get(2)));
    long applied = policy.rounds();
    assertEquals(applied, released.latest("follow").orElseThrow().step(), "the estimators already read are used");
    while (policy.rounds() < 999) {
      policy.update(policy.decide(x), x, 0.5);
    }
    assertEquals(3, BanditReleases.ofRound(policy, 1).size());
    policy.update(policy.decide(x), x, 0.5);
    assertEquals(4, BanditReleases.ofRound(policy, 1).size(), "round 1000");
    // An older step arriving late changes nothing; another bandit's or an unknown key's release is ignored.
    follower.apply(record(BanditReleases.of(policy, 0)));
    follower.apply(new ConsumerRecord<>("dp.releases", 0, 0, "other/arm-0", new byte[] {1, 2}));
    follower.apply(new ConsumerRecord<>("dp.releases", 0, 0, "follow/arm-x", new byte[] {1, 2}));
    follower.apply(new ConsumerRecord<>("dp.releases", 0, 0, null, new byte[] {1}));
    assertEquals(applied, released.latest("follow").orElseThrow().step());
  }

  @Test
  void badRequestsAreRefusedWithTheirCode() {
    BanditRegistry registry = new BanditRegistry(Map.of("follow", entry(1)));
    ReleasedBandits released = new ReleasedBandits();
    new ReleaseFollower(null, "dp.releases", registry, released);
    Decider decider = new Decider(registry, released, noise());
    assertEquals("UNKNOWN_BANDIT",
        assertThrows(Decider.Refused.class, () -> decider.decide("nope", "r", List.of(0.0, 0.0, 0.0, 0.0))).code());
    assertEquals("MISSING_REQUEST_ID",
        assertThrows(Decider.Refused.class, () -> decider.decide("follow", "", List.of(0.0, 0.0, 0.0, 0.0))).code());
    assertEquals("WRONG_DIMENSION",
        assertThrows(Decider.Refused.class, () -> decider.decide("follow", "r", List.of(0.0))).code());
    assertEquals("NON_FINITE_NUMBER", assertThrows(Decider.Refused.class,
        () -> decider.decide("follow", "r", List.of(0.0, Double.NaN, 0.0, 0.0))).code());
  }
}
