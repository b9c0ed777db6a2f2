package org.dpstream.service.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.DeciderConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.decide.http.ApiTokens;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.serde.DpSerdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The deciders killed with SIGKILL and restarted: a restarted instance decides from the last released
 * parameters at once (over HTTP and on the Kafka path), answers a request id decided before the crash with
 * the same decision, and learning resumes where its last transaction left it, so the releases, and the
 * decisions after them, move on past the step released before the crash.
 */
@Timeout(240)
class DeciderRestartIT {

  private static final int D = 5;
  private static final int ARMS = 3;
  /** t0 = 10: rounds [0, 30) are the warm-up, so the crash lands in the greedy phase. */
  private static final BanditConfig BANDIT = new BanditConfig("restart-bandit", D, ARMS, "identity", 1.0, "inf",
      10L, 1, 1e-5, 5_000, 1.0, 1.0, "5m", "drop", null, 1);
  private static final int BEFORE = 120;
  private static final int AFTER = 80;

  @RegisterExtension
  static final KafkaHarness kafka = KafkaHarness.perClass();

  private final Map<String, String> contexts = new HashMap<>();
  private final SplittableRandom random = new SplittableRandom(15); // simulation only

  @Test
  void aRestartedDeciderDecidesFromTheLastReleaseAndLearningResumes(@TempDir Path work) throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    ServiceConfig config = ItModels.serviceConfig("decider-restart", List.of(), kafka.bootstrapServers(),
        work.resolve("state").toString()).withBandits(List.of(BANDIT)).withDecider(DeciderConfig.deciders(port, true)
        .withAuthentication("bearer", work.resolve("api-tokens").toString()));
    String token = ApiTokens.writeNewTokenFile(work.resolve("api-tokens"), "it-client");
    Path configFile = ConfigFiles.write(config, work.resolve("service.yaml"));
    Topics topics = kafka.createTopics(config.topics());
    DecisionApiClient api = new DecisionApiClient(port, BANDIT.id(), token);

    Map<String, JsonNode> answered = new HashMap<>();
    long stepBeforeCrash;
    try (CommittedTopicReader<ModelRelease> releases = kafka.releasesReader(topics);
        CommittedTopicReader<DecisionResponse> decisions = kafka.decisionsReader(topics)) {
      try (ServiceProcess first = ServiceProcess.start(configFile, work.resolve("first.log"))) {
        api.awaitUp(first, Duration.ofSeconds(120));
        for (int i = 0; i < BEFORE; i++) {
          decideAndReward(api, "h" + i, answered);
        }
        sendContexts(topics, "k-before-", 20);
        // Every round learnt releases all arms; wait for the last round's releases to be committed.
        awaitStep(releases, BEFORE, first);
        first.kill();
      }
      stepBeforeCrash = maxArmStep(releases);
      assertTrue(stepBeforeCrash >= BEFORE, "released step before the crash: " + stepBeforeCrash);

      try (ServiceProcess second = ServiceProcess.start(configFile, work.resolve("second.log"))) {
        api.awaitUp(second, Duration.ofSeconds(120));
        // The first decision after the restart is made from the last release, not from the initial state.
        JsonNode afterRestart = decide(api, "after-0");
        assertEquals(stepBeforeCrash, afterRestart.get("modelStep").asLong(), afterRestart.toString());
        assertEquals("GREEDY", afterRestart.get("phase").asText());
        // A request decided before the crash gets the decision it had (the memory is restored from the log);
        // its id with another context is refused.
        assertEquals(answered.get("h7"), decide(api, "h7"));
        HttpResponse<String> hijack = api.post("/decide", "{\"requestId\":\"h7\",\"context\":[0,0,0,0,0]}");
        assertEquals(409, hijack.statusCode(), hijack.body());
        api.reward("after-0", 0.3 * afterRestart.get("arm").asInt() - 0.2);
        for (int i = 1; i < AFTER; i++) {
          decideAndReward(api, "after-" + i, answered);
        }
        sendContexts(topics, "k-after-", 20);
        // Learning resumed: the releases move past the step released before the crash, and so do decisions.
        awaitStep(releases, stepBeforeCrash + AFTER, second);
        JsonNode later = decide(api, "late");
        assertTrue(later.get("modelStep").asLong() > stepBeforeCrash, later.toString());

        // The Kafka path decided every context, before and after the crash; a context decided twice (the
        // at-least-once replay) was decided identically.
        Map<String, DecisionResponse> byRequest = new HashMap<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (byRequest.keySet().stream().filter(id -> id.startsWith("k-")).count() < 40
            && System.nanoTime() < deadline) {
          decisions.poll();
          for (ConsumerRecord<String, DecisionResponse> record : decisions.records()) {
            DecisionResponse decision = record.value();
            DecisionResponse earlier = byRequest.putIfAbsent(decision.getRequestId(), decision);
            if (earlier != null) {
              assertEquals(earlier, decision, "request " + decision.getRequestId() + " decided twice differently");
            }
          }
        }
        assertEquals(40, byRequest.keySet().stream().filter(id -> id.startsWith("k-")).count());
        assertTrue(byRequest.get("k-after-0").getModelStep() >= stepBeforeCrash);
      }
    }
  }

  private void decideAndReward(DecisionApiClient api, String requestId, Map<String, JsonNode> answered)
      throws Exception {
    JsonNode decision = decide(api, requestId);
    answered.put(requestId, decision);
    api.reward(requestId, 0.3 * decision.get("arm").asInt() - 0.2);
  }

  private JsonNode decide(DecisionApiClient api, String requestId) throws Exception {
    String context = contexts.computeIfAbsent(requestId, id -> {
      StringBuilder values = new StringBuilder();
      for (int j = 0; j < D; j++) {
        values.append(j == 0 ? "" : ",").append(random.nextDouble(-1, 1));
      }
      return values.toString();
    });
    return api.decide(requestId, context);
  }

  private void sendContexts(Topics topics, String prefix, int count) {
    List<KafkaHarness.RawRecord> records = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      List<Double> context = new ArrayList<>();
      for (int j = 0; j < D; j++) {
        context.add(random.nextDouble(-1, 1));
      }
      records.add(new KafkaHarness.RawRecord(BANDIT.id().getBytes(StandardCharsets.UTF_8),
          DpSerdes.decisionRequest().encode(
              DecisionRequest.newBuilder().setRequestId(prefix + i).setContext(context).build())));
    }
    kafka.produce(topics.contexts().name(), records);
  }

  private static void awaitStep(CommittedTopicReader<ModelRelease> releases, long step, ServiceProcess process)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (maxArmStep(releases) < step) {
      assertTrue(process.isAlive(), () -> "the service exited:\n" + process.logTail());
      assertTrue(System.nanoTime() < deadline, () -> "released step " + maxArmStep(releases) + " < " + step);
      releases.poll();
    }
  }

  private static long maxArmStep(CommittedTopicReader<ModelRelease> releases) {
    return releases.records().stream().filter(r -> r.key().equals(BANDIT.id() + "/arm-0"))
        .mapToLong(r -> r.value().getStep()).max().orElse(-1);
  }
}
