package org.dpstream.service.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.DeciderConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.serde.DpSerdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A request is learnt at most once even when the context decider reads dp.contexts again from its beginning (its
 * group's offsets reset, as when the broker expired them while every instance was down): the contexts decided again
 * reach learning past their reward deadlines and are refused (STALE_DECISION), so under {@code missingReward: impute}
 * no round is imputed twice. Rounds (the released step, one release per round) equal the distinct requests learnt.
 */
@Timeout(300)
class DeciderReplayLearnsOnceIT {

  private static final int REQUESTS = 40;
  private static final int D = 3;
  private static final long TIMEOUT_MS = 2_000;
  private static final BanditConfig BANDIT = new BanditConfig("replayed", D, 2, "identity", 1.0, "0.1", 10L, 1,
      1e-5, 10_000, 1.0, 1.0, TIMEOUT_MS + "ms", "impute", 0.0, 1);

  @RegisterExtension
  static final KafkaHarness kafka = KafkaHarness.perClass();

  @Test
  void contextsDecidedAgainAfterTheDeciderGroupLostItsOffsetsAreNotLearntAgain(@TempDir Path work) throws Exception {
    ServiceConfig config = ItModels.serviceConfig("replay-once", List.of(), kafka.bootstrapServers(),
        work.resolve("state").toString()).withBandits(List.of(BANDIT)).withDecider(DeciderConfig.deciders(-1, true));
    Topics topics = kafka.createTopics(config.topics());
    // Requests of ten minutes ago, 10 ms apart, then one now: its timestamp passes every earlier deadline, so all
    // REQUESTS expire and are imputed (one round each); "now" waits for a later record.
    long now = System.currentTimeMillis();
    long start = now - Duration.ofMinutes(10).toMillis();
    List<KafkaHarness.TimedRecord> contexts = new ArrayList<>();
    for (int i = 0; i < REQUESTS; i++) {
      contexts.add(context(topics, "r" + i, start + 10L * i));
    }
    contexts.add(context(topics, "now", now));
    kafka.produceTimed(contexts);

    try (CommittedTopicReader<ModelRelease> releases = kafka.releasesReader(topics);
        CommittedTopicReader<RejectedRecord> rejected = kafka.rejectedReader(topics)) {
      try (InProcessService service = new InProcessService(config)) {
        await(() -> lastStep(releases) >= REQUESTS, service, "the first " + REQUESTS + " requests imputed");
        Thread.sleep(2_000); // anything else learnt by now would show
        assertEquals(REQUESTS, lastStep(releases), "each request once");
      }
      // While every instance is down, the decider group's offsets go back to the beginning of dp.contexts.
      kafka.resetGroupToEarliest(config.applicationId() + "-decider", topics.contexts().name(),
          ItModels.SAMPLE_PARTITIONS);

      try (InProcessService service = new InProcessService(config)) {
        // Every context is decided again and logged again; learning refuses the old ones as stale, and "now", still
        // pending, as a duplicate.
        await(() -> reasons(rejected).getOrDefault("STALE_DECISION", 0L) >= REQUESTS || lastStep(releases) > REQUESTS,
            service, "the contexts decided again reaching learning");
        Thread.sleep(2_000);
        assertEquals(REQUESTS, lastStep(releases), "no round learnt twice");
        await(() -> reasons(rejected).getOrDefault("DUPLICATE_REQUEST", 0L) >= 1, service, "\"now\" refused");
        assertEquals(Map.of("STALE_DECISION", (long) REQUESTS, "DUPLICATE_REQUEST", 1L), reasons(rejected));

        // A later request moves stream time on: "now" is imputed, once.
        kafka.produceTimed(List.of(context(topics, "later", now + 10 * TIMEOUT_MS)));
        await(() -> lastStep(releases) >= REQUESTS + 1, service, "\"now\" imputed");
        Thread.sleep(2_000);
        assertEquals(REQUESTS + 1, lastStep(releases), "rounds = the distinct requests past their deadline");
        assertTrue(service.isUp(), service.describe());
      }
    }
  }

  private static KafkaHarness.TimedRecord context(Topics topics, String requestId, long timestamp) {
    List<Double> x = new ArrayList<>();
    for (int j = 0; j < D; j++) {
      x.add(Math.sin(requestId.hashCode() + j));
    }
    return new KafkaHarness.TimedRecord(topics.contexts().name(), timestamp,
        BANDIT.id().getBytes(StandardCharsets.UTF_8),
        DpSerdes.decisionRequest().encode(DecisionRequest.newBuilder().setRequestId(requestId).setContext(x).build()));
  }

  /** The bandit's rounds so far: the largest released step of its arms (one release per round). */
  private static long lastStep(CommittedTopicReader<ModelRelease> releases) {
    releases.poll();
    return releases.records().stream().map(ConsumerRecord::value)
        .filter(r -> r.getModelId().startsWith(BANDIT.id() + "/arm-"))
        .mapToLong(ModelRelease::getStep).max().orElse(0);
  }

  private static Map<String, Long> reasons(CommittedTopicReader<RejectedRecord> rejected) {
    rejected.poll();
    return rejected.records().stream().map(r -> r.value().getReason())
        .collect(Collectors.groupingBy(reason -> reason, Collectors.counting()));
  }

  private static void await(BooleanSupplier condition, InProcessService service, String what) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    while (!condition.getAsBoolean()) {
      assertTrue(service.isUp(), service.describe());
      assertTrue(System.nanoTime() < deadline, "timed out waiting for: " + what);
      Thread.sleep(200);
    }
  }
}
