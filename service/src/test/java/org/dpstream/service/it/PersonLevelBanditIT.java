package org.dpstream.service.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.schemas.Reward;
import org.dpstream.service.bandit.BanditReference;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.release.ModelReleases;
import org.dpstream.service.serde.DpSerdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A person-level DP-Linear bandit ({@code privacyUnit: {by: user, maxContributions: 5}}, deciding in the topology) on
 * a real broker, run as {@code dpstream run} in a child JVM, killed with SIGKILL mid-stream and restarted on an empty
 * state directory (its state and its persons' counts restored from the changelog): persons sending 1 to 20 requests
 * each are all answered, every request after a person's fifth is rejected with CONTRIBUTION_LIMIT exactly once (and
 * its reward finds no request), and the releases are exactly once and bit for bit those of the bandit run without a
 * crash on the bounded stream: a replayed request is neither counted nor learnt twice.
 */
@Timeout(180)
class PersonLevelBanditIT {

  private static final int K = 5;
  private static final int PERSONS = 40;
  private static final int D = 5;
  static final BanditConfig BANDIT = new BanditConfig("per-user-bandit", D, 3, null, null, null, null, 1, 1e-5, 2_000,
      null, 1.0, "2s", "drop", null, 1, "dp-linear", null, 4, null, null, null, null,
      Map.of("by", "user", "maxContributions", K));

  @RegisterExtension
  static final KafkaHarness kafka = KafkaHarness.perClass();

  @Test
  void eachPersonsSixthRequestIsRejectedOnceAndAKillChangesNothing(@TempDir Path work) throws Exception {
    String name = "person-bandit";
    ServiceConfig first = ItModels.banditsDecidingInTopology(name, List.of(BANDIT), kafka.bootstrapServers(),
        work.resolve("state-1").toString());
    ServiceConfig second = ItModels.banditsDecidingInTopology(name, List.of(BANDIT), kafka.bootstrapServers(),
        work.resolve("state-2").toString());
    Path firstConfig = ConfigFiles.write(first, work.resolve("first.yaml"));
    Path secondConfig = ConfigFiles.write(second, work.resolve("second.yaml"));
    Topics topics = kafka.createTopics(first.topics());
    BanditRegistry.Entry entry = first.banditRegistry().find(BANDIT.id()).orElseThrow();

    // person i sends 1 + (7 i mod 20) requests, interleaved round-robin, each rewarded 10 ms after its request
    long base = System.currentTimeMillis() - Duration.ofHours(1).toMillis();
    byte[] key = BANDIT.id().getBytes(StandardCharsets.UTF_8);
    List<KafkaHarness.TimedRecord> all = new ArrayList<>();
    BanditReference bounded = new BanditReference(entry, ItModels.noiseOf(BANDIT.id()));
    Map<String, Integer> sent = new HashMap<>();
    int requests = 0;
    int limited = 0;
    for (int round = 0; round < 20; round++) {
      for (int i = 0; i < PERSONS; i++) {
        if (round >= 1 + (7 * i) % 20) {
          continue;
        }
        long t = base + 20L * requests;
        String requestId = "req-" + requests;
        double[] x = BanditCrashReplayIT.context(requests);
        double r = BanditCrashReplayIT.reward(requests);
        all.add(new KafkaHarness.TimedRecord(topics.contexts().name(), t, key, DpSerdes.decisionRequest().encode(
            DecisionRequest.newBuilder().setRequestId(requestId).setContext(boxed(x)).setUserId("person-" + i)
                .build())));
        all.add(new KafkaHarness.TimedRecord(topics.rewards().name(), t + 10, key, DpSerdes.reward().encode(
            Reward.newBuilder().setRequestId(requestId).setReward(r).build())));
        if (sent.merge("person-" + i, 1, Integer::sum) <= K) {
          bounded.accept(BanditReference.Event.context(t, requestId, x));
          bounded.accept(BanditReference.Event.reward(t + 10, requestId, r));
        } else {
          limited++;
        }
        requests++;
      }
    }
    List<ModelRelease> expected = bounded.releases().stream()
        .map(release -> ModelReleases.inUnit(release, entry.unit())).toList();
    int firstPart = all.size() * 7 / 10;

    try (CommittedTopicReader<DecisionResponse> decisions = kafka.decisionsReader(topics);
        CommittedTopicReader<ModelRelease> releases = kafka.releasesReader(topics);
        CommittedTopicReader<RejectedRecord> rejected = kafka.rejectedReader(topics)) {
      kafka.produceTimed(all.subList(0, firstPart));
      int contextsInFirstPart = (int) all.subList(0, firstPart).stream()
          .filter(r -> r.topic().equals(topics.contexts().name())).count();
      int committedAtKill;
      try (ServiceProcess service = ServiceProcess.start(firstConfig, work.resolve("first.log"))) {
        decisions.awaitAtLeast(requests / 5, Duration.ofSeconds(60), service::isAlive, service::logTail);
        service.kill();
        committedAtKill = decisions.poll();
      }
      System.out.printf("%s: killed with %d of %d first-part decisions committed%n", name, committedAtKill,
          contextsInFirstPart);
      assertTrue(committedAtKill < contextsInFirstPart, "the kill should land mid-stream: " + committedAtKill + " of "
          + contextsInFirstPart + " committed");
      kafka.produceTimed(all.subList(firstPart, all.size()));
      try (ServiceProcess service = ServiceProcess.start(secondConfig, work.resolve("second.log"))) {
        decisions.awaitAtLeast(requests, Duration.ofSeconds(90), service::isAlive, service::logTail);
        releases.awaitAtLeast(expected.size(), Duration.ofSeconds(30), service::isAlive, service::logTail);
        rejected.awaitAtLeast(2 * limited, Duration.ofSeconds(30), service::isAlive, service::logTail);
        decisions.readFor(Duration.ofSeconds(1));
      }
      releases.poll();
      rejected.poll();

      assertEquals(requests, decisions.count(), "every request answered exactly once, the limited ones too");
      assertEquals(expected.size(), releases.count(), "releases exactly once");
      for (int arm = 0; arm < BANDIT.arms(); arm++) {
        String model = BANDIT.id() + "/arm-" + arm;
        // dp.releases is partitioned by release id: the order holds per arm
        assertEquals(expected.stream().filter(r -> r.getModelId().equals(model)).map(PersonLevelBanditIT::hex).toList(),
            releases.records().stream().filter(r -> r.key().equals(model)).map(r -> hex(r.value())).toList(),
            model + ": bit for bit the bounded stream's releases");
      }
      assertTrue(limited > 0 && !expected.isEmpty());
      Set<String> sources = new HashSet<>();
      int contributionLimit = 0;
      for (ConsumerRecord<String, RejectedRecord> r : rejected.records()) {
        assertTrue(sources.add(r.value().getSourceTopic() + ":" + r.value().getSourcePartition() + ":"
            + r.value().getSourceOffset()), "rejected once");
        assertFalse(r.value().getMessage().contains("person-"), r.value().getMessage());
        contributionLimit += r.value().getReason().equals("CONTRIBUTION_LIMIT") ? 1 : 0;
      }
      assertEquals(limited, contributionLimit, "every request after a person's fifth, exactly once");
      assertEquals(2 * limited, rejected.count(), "and its reward, which finds no request");
      for (ConsumerRecord<String, ModelRelease> release : releases.records()) {
        assertEquals("user", release.value().getLedger().getPrivacyUnit());
      }
    }
  }

  private static List<Double> boxed(double[] x) {
    List<Double> values = new ArrayList<>();
    for (double v : x) {
      values.add(v);
    }
    return values;
  }

  private static String hex(ModelRelease release) {
    return HexFormat.of().formatHex(DpSerdes.modelRelease().encode(release));
  }
}
