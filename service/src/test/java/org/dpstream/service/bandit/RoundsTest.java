package org.dpstream.service.bandit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.streams.state.KeyValueStore;
import org.dpstream.bandit.Decision;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.schemas.BanditStepRelease;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.metrics.BanditMetrics;
import org.dpstream.service.noise.NoiseContext;
import org.dpstream.service.noise.PlacedStateStore;
import org.dpstream.service.release.BanditStepReleases;
import org.dpstream.service.release.NoiseGeneration;
import org.dpstream.service.routing.Placement;
import org.junit.jupiter.api.Test;

/**
 * A round alone: a reward joins its request into one round (state written, every arm released, the request
 * completed), a reward the bandit cannot learn changes nothing, and an expired request is dropped or imputed as
 * configured.
 */
class RoundsTest {

  private static final int PARTITIONS = 4;
  private static final RequestKey REQUEST = new RequestKey(Caller.DEFAULT, "r1");

  private static final KeyedNoiseSource KEY = key();

  private final KeyValueStore<String, byte[]> states = BanditStores.bytes(BanditTopology.STATE_STORE);
  private final KeyValueStore<String, byte[]> pendingStore = BanditStores.bytes(BanditTopology.PENDING_STORE);
  private final PendingRequests pending = new PendingRequests(pendingStore);
  private final List<ModelRelease> released = new ArrayList<>();
  private final List<String> refusals = new ArrayList<>();
  private final Rounds rounds;

  RoundsTest() {
    PlacedStateStore placed = new PlacedStateStore(NoiseContext.of(KEY), "bandit", PARTITIONS);
    placed.start(states);
    rounds = new Rounds(placed, pending, BanditMetrics.NONE, (key, release) -> {
      // The default format: one record per release step, keyed by the bandit, carrying every arm.
      assertEquals("b", key, "a step's record is keyed by its bandit");
      released.addAll(BanditStepReleases.armReleases((BanditStepRelease) release));
    });
  }

  private static KeyedNoiseSource key() {
    byte[] material = new byte[32];
    Arrays.fill(material, (byte) 7);
    return new KeyedNoiseSource(NoiseKey.ofBytes(material));
  }

  /** Dimension 2, 3 arms, reward timeout 10 s, released every round. */
  private static BanditRegistry.Entry entry(String missingReward, Double defaultReward) {
    return new BanditConfig("b", 2, 3, "logistic", 1.0, "0.1", 5L, 1, 1e-5, 1_000, 1.0, 1.0, "10s", missingReward,
        defaultReward, 1).toEntry();
  }

  private LiveBandit live(BanditRegistry.Entry entry) {
    return new LiveBandit(entry, Placement.of("b", PARTITIONS), ServedBandit.start(entry.spec(), KEY),
        NoiseGeneration.FIRST, BanditClock.load("b", BanditStores.longs(BanditTopology.CLOCK_STORE)),
        Deadlines.load("b", pendingStore));
  }

  private PendingRequest keepPending(LiveBandit bandit) {
    return keepPending(bandit, REQUEST);
  }

  private PendingRequest keepPending(LiveBandit bandit, RequestKey key) {
    PendingRequest request = PendingRequests.pending(new Decision(1, Decision.Phase.GREEDY, 0), 1_000,
        Duration.ofSeconds(10), new double[] {0.3, -0.4});
    pending.keep("b", key, request, bandit.deadlines);
    return request;
  }

  private static Set<String> modelIds(List<ModelRelease> releases) {
    Set<String> ids = new TreeSet<>();
    releases.forEach(r -> ids.add(r.getModelId()));
    return ids;
  }

  @Test
  void aRewardMakesOneRoundWritesTheStateReleasesEveryArmAndCompletesTheRequest() {
    LiveBandit bandit = live(entry("drop", null));
    PendingRequest request = keepPending(bandit);
    rounds.join(bandit, REQUEST, request, 1.0, (reason, message) -> refusals.add(reason));

    assertEquals(List.of(), refusals);
    assertEquals(1, bandit.policy.rounds());
    assertNotNull(states.get("b"), "the state is written with the round");
    assertTrue(modelIds(released).containsAll(Set.of("b/arm-0", "b/arm-1", "b/arm-2")), modelIds(released).toString());
    assertEquals(BanditRejection.DUPLICATE_REWARD,
        assertInstanceOf(PendingRequests.Refused.class, pending.match("b", REQUEST)).reason(),
        "a second reward for the request is refused");
  }

  @Test
  void aRewardTheBanditCannotLearnIsRefusedAndChangesNothing() {
    LiveBandit bandit = live(entry("drop", null));
    PendingRequest request = keepPending(bandit);
    rounds.join(bandit, REQUEST, request, Double.NaN, (reason, message) -> refusals.add(reason));

    assertEquals(List.of(BanditRejection.INVALID_REWARD.name()), refusals);
    assertEquals(0, bandit.policy.rounds());
    assertNull(states.get("b"), "no state written");
    assertEquals(List.of(), released);
    assertInstanceOf(PendingRequests.Joins.class, pending.match("b", REQUEST), "the request still waits");
  }

  @Test
  void anExpiredRequestIsDroppedWithoutARound() {
    LiveBandit bandit = live(entry("drop", null));
    PendingRequest request = keepPending(bandit);
    rounds.expire(bandit, REQUEST, request);

    assertEquals(0, bandit.policy.rounds());
    assertEquals(List.of(), released);
    assertEquals(BanditRejection.EXPIRED_REQUEST,
        assertInstanceOf(PendingRequests.Refused.class, pending.match("b", REQUEST)).reason());
  }

  @Test
  void anExpiredRequestIsImputedAsOneRoundWithTheDefaultReward() {
    LiveBandit imputing = live(entry("impute", 0.0));
    rounds.expire(imputing, REQUEST, keepPending(imputing));

    LiveBandit joining = live(entry("drop", null));
    List<ModelRelease> imputedReleases = List.copyOf(released);
    released.clear();
    RequestKey joined = new RequestKey(Caller.DEFAULT, "r2");
    rounds.join(joining, joined, keepPending(joining, joined), 0.0,
        (reason, message) -> refusals.add(reason));

    assertEquals(1, imputing.policy.rounds());
    assertEquals(BanditRejection.EXPIRED_REQUEST,
        assertInstanceOf(PendingRequests.Refused.class, pending.match("b", REQUEST)).reason());
    assertTrue(!imputedReleases.isEmpty(), "the imputed round is released");
    assertEquals(released.size(), imputedReleases.size());
    for (int i = 0; i < released.size(); i++) {
      assertEquals(released.get(i).getParameters(), imputedReleases.get(i).getParameters(),
          "the imputed round is the round of the default reward, bit for bit");
    }
  }
}
