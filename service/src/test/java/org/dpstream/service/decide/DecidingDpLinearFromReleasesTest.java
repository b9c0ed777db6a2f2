package org.dpstream.service.decide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.linear.DpLinearPolicy;
import org.dpstream.bandit.linear.DpLinearSpec;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.bandit.BanditReleases;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.decide.follower.ReleaseFollower;
import org.dpstream.service.decide.follower.ReleasedBandits;
import org.junit.jupiter.api.Test;

/** A DP-Linear bandit's deciders, fed its releases, decide as the policy does at every release. */
class DecidingDpLinearFromReleasesTest {

  private static final int D = 4;
  private static final int REFRESH_EVERY = 20;

  private static BanditRegistry.Entry entry() {
    return new BanditConfig("lin", D, 3, null, null, null, null, 1, 1e-5, 2_000, null, 1.0, "10s", "drop", null, 1,
        DpLinearPolicy.NAME, 1.0, REFRESH_EVERY, "factorization").toEntry();
  }

  private static KeyedNoiseSource noise() {
    return DecidingFromReleasesTest.noise();
  }

  private static ConsumerRecord<String, byte[]> record(ModelRelease release) {
    return DecidingFromReleasesTest.record(release);
  }

  private static List<Double> boxed(double[] x) {
    return DecidingFromReleasesTest.boxed(x);
  }

  @Test
  void theDecisionFromTheLatestReleaseIsThePolicysOwn() throws Exception {
    BanditRegistry.Entry entry = entry();
    BanditRegistry registry = new BanditRegistry(Map.of("lin", entry));
    ReleasedBandits released = new ReleasedBandits();
    ReleaseFollower follower = new ReleaseFollower(null, "dp.releases", registry, released);
    Decider decider = new Decider(registry, released, noise());
    DpLinearPolicy policy = DpLinearPolicy.start((DpLinearSpec) entry.spec(), noise().scoped("policy"));
    SplittableRandom random = new SplittableRandom(42); // simulation only
    Set<Integer> armsAfterLearning = new HashSet<>();
    for (int t = 0; t < 400; t++) {
      double[] x = {random.nextDouble(-1, 1), random.nextDouble(-1, 1), random.nextDouble(-1, 1), random.nextDouble()};
      Decision expected = policy.decide(x);
      Decision decided = decider.decide("lin", "r" + t, boxed(x));
      assertEquals(expected.arm(), decided.arm(), "round " + t);
      assertEquals(policy.step(), decided.round(), "round " + t);
      if (policy.step() > 0) {
        armsAfterLearning.add(decided.arm());
      }
      policy.update(expected, x, Math.max(-1, Math.min(1, x[expected.arm()])));
      if (policy.rounds() % REFRESH_EVERY == 0) {
        for (int arm = 0; arm < 3; arm++) {
          follower.apply(record(BanditReleases.of(policy, arm)));
        }
      }
    }
    assertEquals(400 / REFRESH_EVERY, policy.step());
    assertTrue(armsAfterLearning.size() > 1, "decisions from releases use more than one arm: " + armsAfterLearning);
  }
}
