package org.dpstream.service.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
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
import org.dpstream.service.serde.DpSerdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Decisions made in the topology ({@code decider.inTopology}); the deciders' crash test is DeciderRestartIT.
 *
 * <p>The bandit service killed with SIGKILL mid-stream and restarted on an empty state directory (state
 * restored from the changelogs): every decision and every release appears exactly once under
 * read_committed, bit for bit equal to DP-HDB run directly on each bandit's events in order (an
 * uninterrupted run), and every junk record is rejected exactly once.
 *
 * <p>The interleaving of contexts and rewards is fixed by explicit, distinct record timestamps: Kafka
 * Streams merges a task's partitions by timestamp and waits for unfetched data, so with the records
 * in the broker before they are processed the order is the same in every run. The first part is
 * produced before the first start, the second while the service is down.
 */
@Timeout(180)
class BanditCrashReplayIT {

  private static final int REQUESTS_PER_BANDIT = 3_000;
  private static final double FIRST_PART = 0.7;
  private static final double KILL_AFTER_COMMITTED = 0.2;
  private static final int D = 5;
  /** A reward for an unknown request every this many contexts: rejected, never learnt. */
  private static final int JUNK_EVERY = 250;

  /**
   * One drops expired decisions, one imputes; ids chosen to land on both partitions of two. The third runs
   * DP-Linear (statistics released every 7 rounds through the Gaussian tree), imputing.
   */
  static final List<BanditConfig> BANDITS = List.of(
      new BanditConfig("bandit-a", D, 3, "identity", 1.0, "0.1", 20L, 1, 1e-5, 2_000, 1.0, 1.0, "2s", "drop",
          null, 1),
      new BanditConfig("bandit-b", D, 2, "identity", 1.0, "0.2", 30L, 1, 1e-5, 2_000, 1.0, 1.0, "2s", "impute",
          0.0, 3),
      new BanditConfig("bandit-linear", D, 3, null, null, null, null, 1, 1e-5, 2_000, null, 1.0, "2s", "impute",
          0.0, 1, "dp-linear", 1.0, 7, "zcdp"));

  @RegisterExtension
  static final KafkaHarness kafka = KafkaHarness.perClass();

  @Test
  void aKilledBanditServiceRestartsWithTheSameDecisionsAndReleasesExactlyOnce(@TempDir Path work) throws Exception {
    String name = "bandit-crash";
    ServiceConfig first = ItModels.banditsDecidingInTopology(name, BANDITS, kafka.bootstrapServers(),
        work.resolve("state-1").toString());
    ServiceConfig second = ItModels.banditsDecidingInTopology(name, BANDITS, kafka.bootstrapServers(),
        work.resolve("state-2").toString());
    Path firstConfig = ConfigFiles.write(first, work.resolve("first.yaml"));
    Path secondConfig = ConfigFiles.write(second, work.resolve("second.yaml"));
    Topics topics = kafka.createTopics(first.topics());

    long base = System.currentTimeMillis() - Duration.ofHours(1).toMillis();
    Map<String, List<BanditReference.Event>> events = new LinkedHashMap<>();
    Map<String, BanditReference> references = new LinkedHashMap<>();
    List<KafkaHarness.TimedRecord> all = new ArrayList<>();
    BanditRegistry registry = first.banditRegistry();
    int junk = 0;
    for (int b = 0; b < BANDITS.size(); b++) {
      String id = BANDITS.get(b).id();
      List<BanditReference.Event> stream = stream(base + b, 17L + b);
      events.put(id, stream);
      BanditReference reference = new BanditReference(registry.find(id).orElseThrow(),
          ItModels.noiseOf(id));
      stream.forEach(reference::accept);
      references.put(id, reference);
      for (BanditReference.Event e : stream) {
        all.add(encode(topics, id, e));
        junk += e.requestId().startsWith("junk") ? 1 : 0;
      }
    }
    all.sort((x, y) -> Long.compare(x.timestamp(), y.timestamp()));
    int firstPart = (int) (all.size() * FIRST_PART);
    int totalDecisions = references.values().stream().mapToInt(r -> r.decisions().size()).sum();
    int totalReleases = references.values().stream().mapToInt(r -> r.releases().size()).sum();
    int decisionsInFirstPart = (int) all.subList(0, firstPart).stream()
        .filter(r -> r.topic().equals(topics.contexts().name())).count();

    try (CommittedTopicReader<DecisionResponse> decisions = kafka.decisionsReader(topics);
        CommittedTopicReader<ModelRelease> releases = kafka.releasesReader(topics);
        CommittedTopicReader<RejectedRecord> rejected = kafka.rejectedReader(topics)) {
      kafka.produceTimed(all.subList(0, firstPart));
      int committedAtKill;
      try (ServiceProcess service = ServiceProcess.start(firstConfig, work.resolve("first.log"))) {
        decisions.awaitAtLeast((int) (totalDecisions * KILL_AFTER_COMMITTED), Duration.ofSeconds(60),
            service::isAlive, service::logTail);
        service.kill();
        committedAtKill = decisions.poll();
      }
      System.out.printf("%s: killed with %d of %d first-part decisions committed%n", name, committedAtKill,
          decisionsInFirstPart);
      assertTrue(committedAtKill < decisionsInFirstPart,
          "the kill should land mid-stream: " + committedAtKill + " of " + decisionsInFirstPart + " committed");
      kafka.produceTimed(all.subList(firstPart, all.size())); // arrives while the service is down

      try (ServiceProcess service = ServiceProcess.start(secondConfig, work.resolve("second.log"))) {
        decisions.awaitAtLeast(totalDecisions, Duration.ofSeconds(90), service::isAlive, service::logTail);
        releases.awaitAtLeast(totalReleases, Duration.ofSeconds(30), service::isAlive, service::logTail);
        rejected.awaitAtLeast(junk, Duration.ofSeconds(30), service::isAlive, service::logTail);
        decisions.readFor(Duration.ofSeconds(1));
      }
      releases.poll();
      rejected.poll();

      for (Map.Entry<String, BanditReference> entry : references.entrySet()) {
        String id = entry.getKey();
        BanditReference reference = entry.getValue();
        List<DecisionResponse> got = decisions.records().stream().filter(r -> r.key().equals(id))
            .map(ConsumerRecord::value).toList();
        assertEquals(reference.decisions().size(), got.size(), id + ": decisions exactly once");
        assertEquals(reference.decisions(), got, id + ": decisions as without the crash");
        assertTrue(reference.expired() > 0 && reference.joined() > 0, id + " exercises expiry and joins");
        int arms = registry.find(id).orElseThrow().spec().arms();
        for (int arm = 0; arm < arms; arm++) {
          String model = id + "/arm-" + arm;
          List<String> expected = reference.releases().stream().filter(r -> r.getModelId().equals(model))
              .map(BanditCrashReplayIT::hex).toList();
          List<String> actual = releases.records().stream().filter(r -> r.key().equals(model))
              .map(r -> hex(r.value())).toList();
          assertEquals(expected, actual, model + ": releases exactly once and bit for bit");
        }
      }
      assertEquals(totalDecisions, decisions.count());
      assertEquals(totalReleases, releases.count());
      Set<String> sources = new HashSet<>();
      for (ConsumerRecord<String, RejectedRecord> r : rejected.records()) {
        assertEquals("UNKNOWN_REQUEST", r.value().getReason());
        assertTrue(sources.add(r.value().getSourcePartition() + ":" + r.value().getSourceOffset()), "rejected once");
      }
      assertEquals(junk, rejected.count());
    }
  }

  private static String hex(ModelRelease release) {
    return HexFormat.of().formatHex(DpSerdes.modelRelease().encode(release));
  }

  /**
   * Contexts every 10 ms; request i answered after 1 to 60 contexts, every 9th never (expires after 2
   * s of the bandit's stream time); a junk reward now and then. Timestamps are even offsets from the
   * bandit's base, so two bandits never share one.
   */
  static List<BanditReference.Event> stream(long base, long seed) {
    SplittableRandom random = new SplittableRandom(seed); // simulation only
    List<long[]> answers = new ArrayList<>();
    for (int i = 0; i < REQUESTS_PER_BANDIT; i++) {
      if (i % 9 != 4) {
        answers.add(new long[] {20L * i + 20L * (1 + random.nextInt(60)) + 10, i});
      }
    }
    answers.sort((a, b) -> Long.compare(a[0], b[0]));
    List<BanditReference.Event> events = new ArrayList<>();
    int next = 0;
    for (int i = 0; i < REQUESTS_PER_BANDIT; i++) {
      long t = 20L * i;
      while (next < answers.size() && answers.get(next)[0] < t) {
        long[] a = answers.get(next++);
        events.add(BanditReference.Event.reward(base + a[0], "req-" + a[1], reward((int) a[1])));
      }
      events.add(BanditReference.Event.context(base + t, "req-" + i, context(i)));
      if (i % JUNK_EVERY == JUNK_EVERY - 1) {
        events.add(BanditReference.Event.reward(base + t + 4, "junk-" + i, 0.5));
      }
    }
    while (next < answers.size()) {
      long[] a = answers.get(next++);
      events.add(BanditReference.Event.reward(base + a[0], "req-" + a[1], reward((int) a[1])));
    }
    return events;
  }

  static double[] context(int i) {
    double[] x = new double[D];
    for (int j = 0; j < D; j++) {
      x[j] = Math.sin(0.37 * i * (j + 1) + j);
    }
    return x;
  }

  static double reward(int i) {
    double[] x = context(i);
    return 0.5 * x[0] - 0.3 * x[2] + 0.1 * Math.cos(i);
  }

  private static KafkaHarness.TimedRecord encode(Topics topics, String banditId, BanditReference.Event e) {
    byte[] key = banditId.getBytes(StandardCharsets.UTF_8);
    if (e.isContext()) {
      List<Double> values = new ArrayList<>();
      for (double v : e.context()) {
        values.add(v);
      }
      return new KafkaHarness.TimedRecord(topics.contexts().name(), e.timestamp(), key, DpSerdes.decisionRequest()
          .encode(DecisionRequest.newBuilder().setRequestId(e.requestId()).setContext(values).build()));
    }
    return new KafkaHarness.TimedRecord(topics.rewards().name(), e.timestamp(), key, DpSerdes.reward()
        .encode(Reward.newBuilder().setRequestId(e.requestId()).setReward(e.reward()).build()));
  }
}
