package org.dpstream.service.bandit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.schemas.DecidedRequest;
import org.dpstream.schemas.DecisionPhase;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.schemas.Reward;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.contribution.ContributionCounts;
import org.dpstream.service.metrics.BanditMetrics;
import org.dpstream.service.noise.NoiseContext;
import org.dpstream.service.serde.DpSerdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bandits of {@code privacyUnit: {by: user, maxContributions: k}}: persons sending 1 to 20 requests each have their
 * first k learnt and every later one rejected with CONTRIBUTION_LIMIT before it is kept; the releases are bit for bit
 * those of the bounded stream and name the unit; no store or release holds an id.
 */
class PersonLevelBanditTopologyTest {

  static final int K = 5;
  /** DP-Linear (the default policy at d = 3), the person read from the decision log's userId. */
  static final BanditConfig LINEAR = new BanditConfig("per-user-linear", BanditTopologyTest.D, 2, null, null, null,
      null, 1, 1e-5, 400, null, 1.0, "10s", "drop", null, 1, null, null, 4, null, null, null, null,
      Map.of("by", "user", "maxContributions", K));
  /** DP-HDB, the person read from the request's Kafka header x-person, at most two rounds each. */
  static final BanditConfig HDB = new BanditConfig("per-user-hdb", BanditTopologyTest.D, 3, "identity", 1.0, "inf",
      2L, 1, 1e-5, 400, 1.0, 1.0, "10s", "drop", null, 1, "dp-hdb", null, null, null, null, null, null,
      Map.of("by", "user", "maxContributions", 2, "header", "x-person"));
  /** DP-Linear on the tree, one round per leaf, at most two rounds per person. */
  static final BanditConfig TWO = new BanditConfig("two-per-user", BanditTopologyTest.D, 2, null, null, null, null, 1,
      1e-5, 400, null, 1.0, "10s", "drop", null, 1, "dp-linear", null, 1, "zcdp", null, null, null,
      Map.of("by", "user", "maxContributions", 2));
  static final BanditRegistry BANDITS = new ServiceConfig("person-bandit-test", null, List.of(), Map.of(), 0,
      List.of(LINEAR, HDB, TWO)).withRoutingPartitions(1).banditRegistry();

  @TempDir Path stateDir;

  static BanditDriver driver(Path stateDir, BanditTopology.Deciding deciding) {
    return driver(stateDir, deciding, BanditMetrics.NONE);
  }

  static BanditDriver driver(Path stateDir, BanditTopology.Deciding deciding, BanditMetrics metrics) {
    return new BanditDriver(stateDir, "person-bandit-test", BANDITS, metrics, 1, deciding,
        NoiseContext.of(new KeyedNoiseSource(BanditTopologyTest.key())));
  }

  static byte[] decided(String requestId, String userId, int arm, double[] x) {
    return DpSerdes.decidedRequest().encode(DecidedRequest.newBuilder()
        .setDecision(DecisionResponse.newBuilder().setRequestId(requestId).setArm(arm).setModelStep(0)
            .setPhase(DecisionPhase.GREEDY).build())
        .setContext(Arrays.stream(x).boxed().toList()).setUserId(userId).build());
  }

  static byte[] reward(String requestId, double r) {
    return DpSerdes.reward().encode(Reward.newBuilder().setRequestId(requestId).setReward(r).build());
  }

  static TestRecord<byte[], byte[]> record(String bandit, byte[] value, long timestamp) {
    return new TestRecord<>(bandit.getBytes(StandardCharsets.UTF_8), value, null, timestamp);
  }

  /** One logged request and its reward. */
  record Request(String id, String person, int arm, double[] x, double reward, long timestamp) {}

  private static void pipe(BanditDriver driver, List<Request> requests) {
    for (Request r : requests) {
      driver.requests.pipeInput(record(LINEAR.id(), decided(r.id(), r.person(), r.arm(), r.x()), r.timestamp()));
      driver.rewards.pipeInput(record(LINEAR.id(), reward(r.id(), r.reward()), r.timestamp() + 1));
    }
  }

  @Test
  void theReleasesAreStampedWithTheServicesClockNotTheRoundsTimestamps() {
    List<Request> requests = new ArrayList<>();
    for (int n = 0; n < 8; n++) {
      requests.add(new Request("r" + n, "person-" + n, n % 2, BanditTopologyTest.context(n),
          BanditTopologyTest.reward(n), 1_000 + 2L * n));
    }
    long before = System.currentTimeMillis();
    try (BanditDriver driver = driver(stateDir, BanditTopology.Deciding.BY_DECIDERS)) {
      long after = System.currentTimeMillis();
      pipe(driver, requests);
      List<TestRecord<String, ModelRelease>> releases = driver.releases.readRecordsToList();
      assertFalse(releases.isEmpty());
      // The test driver's clock starts at the wall-clock time it was built and stands still; the rounds' own
      // timestamps (the producers' to set) are near 1,000.
      for (TestRecord<String, ModelRelease> release : releases) {
        assertTrue(release.timestamp() >= before && release.timestamp() <= after,
            () -> release.key() + " stamped " + release.timestamp());
      }
    }
  }

  @Test
  void eachPersonsSixthRequestOnIsRejectedAndTheReleasesAreThoseOfTheBoundedStream() {
    // person i sends 1 + (7 i mod 20) requests: 1 to 20, interleaved round-robin
    int persons = 20;
    List<Request> all = new ArrayList<>();
    List<Request> bounded = new ArrayList<>();
    Map<String, Integer> sent = new HashMap<>();
    long t = 1_000;
    for (int round = 0; round < 20; round++) {
      for (int i = 0; i < persons; i++) {
        if (round >= 1 + (7 * i) % 20) {
          continue;
        }
        int n = all.size();
        String person = "person-" + i;
        Request request = new Request("r" + n, person, n % 2, BanditTopologyTest.context(n),
            BanditTopologyTest.reward(n), t);
        t += 2;
        all.add(request);
        if (sent.merge(person, 1, Integer::sum) <= K) {
          bounded.add(request);
        }
      }
    }
    List<ModelRelease> expected;
    try (BanditDriver reference = driver(stateDir.resolve("bounded"), BanditTopology.Deciding.BY_DECIDERS)) {
      pipe(reference, bounded);
      assertTrue(reference.rejected.isEmpty());
      expected = reference.releases.readValuesToList();
    }
    try (BanditDriver driver = driver(stateDir.resolve("all"), BanditTopology.Deciding.BY_DECIDERS)) {
      pipe(driver, all);
      List<ModelRelease> releases = driver.releases.readValuesToList();
      assertEquals(bounded.size() / 4 * 2, releases.size(), "a release of both arms every fourth round");
      assertEquals(expected, releases, "bit for bit the releases of the bounded stream");
      for (ModelRelease release : releases) {
        assertEquals("user", release.getLedger().getPrivacyUnit());
        assertEquals(K, release.getLedger().getMaxContributions());
        assertTrue(release.getAlgorithm().endsWith(" per user, k=5"), release.getAlgorithm());
        assertFalse(new String(DpSerdes.modelRelease().encode(release), StandardCharsets.ISO_8859_1).contains("person-"));
      }
      List<RejectedRecord> rejected = driver.rejected.readValuesToList();
      assertEquals(all.size() - bounded.size(), rejected.size());
      for (RejectedRecord r : rejected) {
        assertEquals(BanditRejection.CONTRIBUTION_LIMIT.name(), r.getReason());
        assertFalse(r.getMessage().contains("person-"), "a message never names the person: " + r.getMessage());
        DecidedRequest original = DpSerdes.decidedRequest().decodeOrThrow(bytes(r.getOriginalValue()));
        assertTrue(sent.get(original.getUserId()) > K, "only a person past k is refused");
      }
      assertEquals(persons, assertNoIdIn(driver.driver), "one count per person");
    }
  }

  @Test
  void aRequestWithoutItsPersonIsRejectedAndAHeaderCanNameThePerson() {
    try (BanditDriver driver = driver(stateDir, BanditTopology.Deciding.IN_TOPOLOGY)) {
      byte[] noHeader = request("q0", "in-the-field-is-not-read", 0);
      driver.requests.pipeInput(new TestRecord<>(HDB.id().getBytes(StandardCharsets.UTF_8), noHeader,
          new RecordHeaders(), 1_000L));
      List<RejectedRecord> missing = driver.rejected.readValuesToList();
      assertEquals(1, missing.size());
      assertEquals(BanditRejection.MISSING_USER_ID.name(), missing.get(0).getReason());
      assertTrue(missing.get(0).getMessage().contains("header x-person"), missing.get(0).getMessage());
      assertArrayEquals(noHeader, bytes(missing.get(0).getOriginalValue()), "rejected with its original bytes");
      assertTrue(driver.decisions.isEmpty());

      for (int n = 1; n <= 3; n++) {
        RecordHeaders headers = new RecordHeaders();
        headers.add("x-person", "alice".getBytes(StandardCharsets.UTF_8));
        driver.requests.pipeInput(new TestRecord<>(HDB.id().getBytes(StandardCharsets.UTF_8), request("q" + n, null, n),
            headers, 1_000L + n));
      }
      assertEquals(3, driver.decisions.readValuesToList().size(), "every request is answered: it is its own output");
      List<RejectedRecord> limit = driver.rejected.readValuesToList();
      assertEquals(List.of(BanditRejection.CONTRIBUTION_LIMIT.name()), limit.stream().map(RejectedRecord::getReason)
          .toList());
      for (int n = 1; n <= 3; n++) {
        driver.rewards.pipeInput(record(HDB.id(), reward("q" + n, 0.5), 1_010L + n));
      }
      List<ModelRelease> releases = driver.releases.readValuesToList();
      assertEquals(2, releases.stream().mapToLong(ModelRelease::getStep).max().orElseThrow(), "two rounds learnt");
      releases.forEach(r -> assertTrue(r.getAlgorithm().endsWith(" per user, k=2"), r.getAlgorithm()));
      assertEquals(List.of(BanditRejection.UNKNOWN_REQUEST.name()),
          driver.rejected.readValuesToList().stream().map(RejectedRecord::getReason).toList(),
          "the refused request's reward finds no request");
      assertEquals(1, assertNoIdIn(driver.driver));
    }
  }

  private static byte[] request(String requestId, String userId, int n) {
    return DpSerdes.decisionRequest().encode(DecisionRequest.newBuilder().setRequestId(requestId)
        .setContext(Arrays.stream(BanditTopologyTest.context(n)).boxed().toList()).setUserId(userId).build());
  }

  static byte[] bytes(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }

  /** Asserts no store holds a person's id (key or value); returns the number of counts. */
  static int assertNoIdIn(TopologyTestDriver driver) {
    return assertNoIdIn(driver, List.of("person-", "alice"));
  }

  /** Asserts no store holds any of {@code ids} (key or value); returns the number of counts. */
  static int assertNoIdIn(TopologyTestDriver driver, List<String> ids) {
    int counts = 0;
    for (String name : List.of(BanditTopology.STATE_STORE, BanditTopology.PENDING_STORE)) {
      KeyValueStore<String, byte[]> store = driver.getKeyValueStore(name);
      try (KeyValueIterator<String, byte[]> it = store.all()) {
        while (it.hasNext()) {
          KeyValue<String, byte[]> entry = it.next();
          for (String id : ids) {
            assertFalse(entry.key.contains(id), name + " holds an id: " + entry.key);
            assertFalse(new String(entry.value, StandardCharsets.ISO_8859_1).contains(id), name + " holds an id");
          }
          counts += entry.key.startsWith(ContributionCounts.KEY_PREFIX) ? 1 : 0;
        }
      }
    }
    return counts;
  }
}
