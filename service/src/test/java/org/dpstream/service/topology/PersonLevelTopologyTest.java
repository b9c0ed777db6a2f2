package org.dpstream.service.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.dpstream.core.online.EstimatorFactory;
import org.dpstream.core.online.OnlineEstimator;
import org.dpstream.core.online.OnlineEstimators;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.contribution.ContributionCounts;
import org.dpstream.service.metrics.ModelMetrics;
import org.dpstream.service.routing.Placement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model of {@code privacyUnit: {by: user, maxContributions: 5}}: persons sending 1 to 20 samples each have their
 * first five learnt and every later one rejected with CONTRIBUTION_LIMIT before the estimator; the releases are
 * consecutive, bit for bit the estimator of the accepted samples accounted for five participations, and name the
 * unit; the store holds pseudonyms, never an id.
 */
class PersonLevelTopologyTest {

  private static final int K = 5;
  private static final ModelConfig PER_USER = new ModelConfig("per-user", 2, "squared", "2", 1, 1, 1e-5, 256, 1, 1,
      null, null, "zcdp", 1, null, null, null, null, null, Map.of("by", "user", "maxContributions", K));
  private static final ModelConfig BY_HEADER = new ModelConfig("by-header", 2, "squared", "2", 1, 1, 1e-5, 256, 1, 1,
      null, null, "zcdp", 1, null, null, null, null, null,
      Map.of("by", "user", "maxContributions", 2, "header", "x-person"));
  private static final ModelConfig EVENT = new ModelConfig("event", 2, "squared", "2", 1, 1, 1e-5, 256, 1, 1,
      null, null, "zcdp", 1);
  private static final ServiceConfig CONFIG =
      new ServiceConfig("dpstream-test", null, List.of(PER_USER, BY_HEADER, EVENT), Map.of(), 0).withRoutingPartitions(1);

  @TempDir Path stateDir;

  private static byte[] json(double a, double b, double y, String userId) {
    String person = userId == null ? "" : ", \"userId\": \"" + userId + "\"";
    return String.format(Locale.ROOT, "{\"features\": [%s, %s], \"label\": %s%s}", Double.toString(a),
        Double.toString(b), Double.toString(y), person).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] key(String model) {
    return model.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void eachPersonsSixthSampleOnIsRejectedAndTheReleasesAreTheBoundedStream() {
    // person i sends 1 + (7 i mod 20) samples: 1 to 20, interleaved round-robin
    int persons = 20;
    int[] sends = new int[persons];
    for (int i = 0; i < persons; i++) {
      sends[i] = 1 + (7 * i) % 20;
    }
    List<double[]> accepted = new ArrayList<>();
    int expectedRejections = 0;
    Map<String, Integer> sent = new HashMap<>();
    try (TopologyFixture fixture = new TopologyFixture(stateDir, ModelMetrics.NONE, 1, EstimatorFactory.PRIVATE, CONFIG)) {
      for (int round = 0; round < 20; round++) {
        for (int i = 0; i < persons; i++) {
          if (round >= sends[i]) {
            continue;
          }
          String person = "person-" + i;
          double a = Math.sin(0.3 * i + round);
          double b = Math.cos(0.7 * i - round);
          double y = 0.5 * a - 0.2 * b;
          fixture.samples.pipeInput(key("per-user"), json(a, b, y, person));
          int count = sent.merge(person, 1, Integer::sum);
          if (count <= K) {
            accepted.add(new double[] {a, b, y});
          } else {
            expectedRejections++;
          }
        }
      }
      List<ModelRelease> releases = fixture.releases.readValuesToList();
      List<RejectedRecord> rejected = fixture.rejected.readValuesToList();
      assertEquals(accepted.size(), releases.size());
      assertEquals(expectedRejections, rejected.size());
      for (RejectedRecord r : rejected) {
        assertEquals(SampleRejection.CONTRIBUTION_LIMIT.name(), r.getReason());
        assertFalse(r.getMessage().contains("person-"), "a message never names the person: " + r.getMessage());
      }
      OnlineEstimator direct = OnlineEstimators.start(PER_USER.toSpec(),
          Placement.of("per-user", 1).noise(new KeyedNoiseSource(TopologyFixture.key())));
      assertEquals(K, direct.spec().participations());
      for (int t = 0; t < releases.size(); t++) {
        ModelRelease release = releases.get(t);
        assertEquals(t + 1, release.getStep(), "releases are consecutive");
        double[] row = accepted.get(t);
        direct.step(new double[] {row[0], row[1]}, row[2]);
        assertArrayEquals(direct.parameters(),
            release.getParameters().stream().mapToDouble(Double::doubleValue).toArray(), "step " + (t + 1));
        assertEquals("user", release.getLedger().getPrivacyUnit());
        assertEquals(K, release.getLedger().getMaxContributions());
        assertTrue(release.getAlgorithm().endsWith(" per user, k=5"), release.getAlgorithm());
      }

      KeyValueStore<String, byte[]> store = fixture.driver.getKeyValueStore(ContinualReleaseTopology.MODEL_STATE_STORE);
      int counts = 0;
      try (KeyValueIterator<String, byte[]> all = store.all()) {
        while (all.hasNext()) {
          KeyValue<String, byte[]> entry = all.next();
          assertFalse(entry.key.contains("person-"), "the store holds no id: " + entry.key);
          assertFalse(new String(entry.value, StandardCharsets.ISO_8859_1).contains("person-"));
          counts += entry.key.startsWith(ContributionCounts.KEY_PREFIX) ? 1 : 0;
        }
      }
      assertEquals(persons, counts, "one count per person");
    }
  }

  @Test
  void aSampleWithoutItsPersonIsRejectedAndAHeaderCanNameThePerson() {
    try (TopologyFixture fixture = new TopologyFixture(stateDir, ModelMetrics.NONE, 1, EstimatorFactory.PRIVATE, CONFIG)) {
      fixture.samples.pipeInput(key("per-user"), json(0.1, 0.2, 0.3, null));
      fixture.samples.pipeInput(key("per-user"), json(0.1, 0.2, 0.3, " "));
      RecordHeaders none = new RecordHeaders();
      fixture.samples.pipeInput(new org.apache.kafka.streams.test.TestRecord<>(key("by-header"),
          json(0.1, 0.2, 0.3, "in-the-field-is-not-read"), none));
      List<RejectedRecord> rejected = fixture.rejected.readValuesToList();
      assertEquals(3, rejected.size());
      rejected.forEach(r -> assertEquals(SampleRejection.MISSING_USER_ID.name(), r.getReason()));
      assertTrue(rejected.get(2).getMessage().contains("header x-person"), rejected.get(2).getMessage());
      assertTrue(fixture.releases.isEmpty());

      for (int n = 0; n < 3; n++) {
        RecordHeaders headers = new RecordHeaders();
        headers.add("x-person", "alice".getBytes(StandardCharsets.UTF_8));
        fixture.samples.pipeInput(new org.apache.kafka.streams.test.TestRecord<>(key("by-header"),
            json(0.1, 0.2, 0.3, null), headers));
      }
      assertEquals(2, fixture.releases.readValuesToList().size());
      List<RejectedRecord> limit = fixture.rejected.readValuesToList();
      assertEquals(1, limit.size());
      assertEquals(SampleRejection.CONTRIBUTION_LIMIT.name(), limit.get(0).getReason());
    }
  }

  @Test
  void aReleaseCarriesNoneOfItsSamplesHeaders() {
    try (TopologyFixture fixture = new TopologyFixture(stateDir, ModelMetrics.NONE, 1, EstimatorFactory.PRIVATE, CONFIG)) {
      RecordHeaders headers = new RecordHeaders();
      headers.add("x-person", "alice".getBytes(StandardCharsets.UTF_8));
      headers.add("trace", "t-1".getBytes(StandardCharsets.UTF_8));
      fixture.samples.pipeInput(new org.apache.kafka.streams.test.TestRecord<>(key("by-header"),
          json(0.1, 0.2, 0.3, null), headers));
      fixture.samples.pipeInput(new org.apache.kafka.streams.test.TestRecord<>(key("event"),
          json(0.1, 0.2, 0.3, null), headers));
      List<org.apache.kafka.streams.test.TestRecord<String, ModelRelease>> releases = fixture.releases.readRecordsToList();
      assertEquals(2, releases.size());
      // Not the producer's (the person's id), nor routing's (where the sample was read): raw data, not a release's.
      releases.forEach(release -> assertEquals(0, release.headers().toArray().length,
          () -> release.key() + " carries " + java.util.Arrays.toString(release.headers().toArray())));
    }
  }

  @Test
  void aReleaseIsStampedWithTheServicesClockNotItsSamplesTimestamp() {
    long before = System.currentTimeMillis();
    try (TopologyFixture fixture = new TopologyFixture(stateDir, ModelMetrics.NONE, 1, EstimatorFactory.PRIVATE, CONFIG)) {
      long after = System.currentTimeMillis();
      // An event time the producer chose (here: one that could encode anything), far from the service's clock.
      long eventTime = 42L;
      fixture.samples.pipeInput(new org.apache.kafka.streams.test.TestRecord<>(key("event"),
          json(0.1, 0.2, 0.3, null), java.time.Instant.ofEpochMilli(eventTime)));
      List<org.apache.kafka.streams.test.TestRecord<String, ModelRelease>> releases = fixture.releases.readRecordsToList();
      assertEquals(1, releases.size());
      // The test driver's clock starts at the wall-clock time it was built and stands still.
      long stamped = releases.get(0).timestamp();
      assertTrue(stamped >= before && stamped <= after, () -> "release stamped " + stamped + ", not in [" + before
          + ", " + after + "]");
    }
  }

  @Test
  void anEventLevelModelIgnoresTheIdAndItsReleasesSayNothingOfAUnit() {
    try (TopologyFixture fixture = new TopologyFixture(stateDir, ModelMetrics.NONE, 1, EstimatorFactory.PRIVATE, CONFIG)) {
      for (int n = 0; n < 8; n++) {
        fixture.samples.pipeInput(key("event"), json(0.1 * n, 0.2, 0.3, n % 2 == 0 ? "bob" : null));
      }
      List<ModelRelease> releases = fixture.releases.readValuesToList();
      assertEquals(8, releases.size());
      assertTrue(fixture.rejected.isEmpty());
      for (ModelRelease release : releases) {
        assertNull(release.getLedger().getPrivacyUnit());
        assertNull(release.getLedger().getMaxContributions());
        assertFalse(release.getAlgorithm().contains("per user"));
      }
    }
  }
}
