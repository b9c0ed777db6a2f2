package org.dpstream.service.decide.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.dpstream.bandit.release.ReleasedBandit;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.schemas.DecidedRequest;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.decide.Decider;
import org.dpstream.service.decide.DeciderMetrics;
import org.dpstream.service.decide.producer.DecisionService;
import org.dpstream.service.decide.follower.ReleaseFollower;
import org.dpstream.service.decide.follower.ReleasedBandits;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.serde.DpSerdes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The decision API against a mock producer: what it answers, and what it writes (or does not). */
class DecisionHttpServerTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Topics TOPICS = Topics.defaults();

  private final BanditRegistry registry = new BanditRegistry(Map.of(
      "offers", new BanditConfig("offers", 2, 3, "logistic", 1.0, "0.1", 5L, 1, 1e-5, 1_000, 1.0, 1.0, "10s", "drop",
          null, 1).toEntry()));
  private final ReleasedBandits released = new ReleasedBandits();
  private final io.micrometer.core.instrument.simple.SimpleMeterRegistry meters =
      new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
  private MockProducer<String, byte[]> producer;
  private DecisionHttpServer server;
  private final HttpClient client = HttpClient.newHttpClient();

  private void start(boolean autoComplete) throws Exception {
    new ReleaseFollower(null, "dp.releases", registry, released);
    byte[] material = new byte[NoiseKey.MINIMUM_BYTES];
    Decider decider = new Decider(registry, released, new KeyedNoiseSource(NoiseKey.ofBytes(material)));
    producer = new MockProducer<>(autoComplete, null, new StringSerializer(), new ByteArraySerializer());
    server = DecisionHttpServer.start(new DecisionService(decider, TOPICS, producer, 60_000, 1_000,
        new DeciderMetrics(meters)), 0, 4);
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private HttpResponse<String> post(String path, String body) throws Exception {
    return client.send(HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + path))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private CompletableFuture<HttpResponse<String>> postAsync(String path, String body) {
    return client.sendAsync(HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + path))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode json(HttpResponse<String> response) throws Exception {
    return JSON.readTree(response.body());
  }

  /** Step 7 of t0 = 5, K = 3: warm-up, arm 1. */
  private void releaseStep7() {
    released.publish(new ReleasedBandit("offers", "dp-hdb", 7, new double[3][2], Map.of()));
  }

  @Test
  void aDecisionIsAnsweredOnceLoggedAndARepeatedRequestIdGetsTheSameDecision() throws Exception {
    start(true);
    HttpResponse<String> first = post("/v1/bandits/offers/decide", "{\"requestId\": \"q1\", \"context\": [0.5, -2]}");
    assertEquals(200, first.statusCode(), first.body());
    assertEquals(JSON.readTree("{\"requestId\":\"q1\",\"arm\":0,\"modelStep\":0,\"phase\":\"WARM_UP\"}"), json(first));
    List<ProducerRecord<String, byte[]>> sent = producer.history();
    assertEquals(2, sent.size());
    assertEquals(TOPICS.decided().name(), sent.get(0).topic());
    assertEquals("offers", sent.get(0).key());
    DecidedRequest logged = DpSerdes.decidedRequest().decodeOrThrow(sent.get(0).value());
    assertEquals(List.of(0.5, -2.0), logged.getContext(), "the log keeps the context as given; learning clips it");
    assertEquals(0, logged.getDecision().getArm());
    assertEquals(TOPICS.decisions().name(), sent.get(1).topic());

    releaseStep7();
    HttpResponse<String> again = post("/v1/bandits/offers/decide", "{\"requestId\": \"q1\", \"context\": [0.5, -2.0]}");
    assertEquals(json(first), json(again), "same request, same decision, though the release moved on");
    assertEquals(2, producer.history().size(), "nothing written again");
    // The same id with another context would hand the first caller's decision to another: refused.
    HttpResponse<String> hijack = post("/v1/bandits/offers/decide", "{\"requestId\": \"q1\", \"context\": [0, 0]}");
    assertEquals(409, hijack.statusCode());
    assertEquals("DUPLICATE_REQUEST", json(hijack).get("error").asText());
    assertEquals(2, producer.history().size());
    HttpResponse<String> other = post("/v1/bandits/offers/decide", "{\"requestId\": \"q2\", \"context\": [0, 0]}");
    assertEquals(1, json(other).get("arm").asInt());
    assertEquals(7, json(other).get("modelStep").asLong());
  }

  @Test
  void answersEchoARequestIdThatNeedsEscapingAsValidJson() throws Exception {
    start(true);
    String id = "q\"\\\u00e9\n\u0001/";
    String body = JSON.writeValueAsString(Map.of("requestId", id, "context", List.of(0, 0)));
    HttpResponse<String> decided = post("/v1/bandits/offers/decide", body);
    assertEquals(200, decided.statusCode(), decided.body());
    assertEquals(id, json(decided).get("requestId").asText());
    HttpResponse<String> rewarded = post("/v1/bandits/offers/reward",
        JSON.writeValueAsString(Map.of("requestId", id, "reward", 0.5)));
    assertEquals(200, rewarded.statusCode(), rewarded.body());
    assertEquals(id, json(rewarded).get("requestId").asText());
  }

  @Test
  void badInputIsA400WithAReasonAndWritesNothing() throws Exception {
    start(true);
    Map<String, String> bodies = Map.of(
        "not json", "UNDECODABLE",
        "[1, 2]", "BAD_REQUEST",
        "{\"context\": [0, 0]}", "BAD_REQUEST",
        "{\"requestId\": 5, \"context\": [0, 0]}", "BAD_REQUEST",
        "{\"requestId\": \"a\", \"context\": [0, \"x\"]}", "WRONG_TYPE",
        "{\"requestId\": \"a\", \"context\": [0, 0, 0]}", "WRONG_DIMENSION",
        "{\"requestId\": \"a\", \"context\": [0, NaN]}", "UNDECODABLE",
        "{\"requestId\": \"a\", \"context\": [0, 1e999]}", "NON_FINITE_NUMBER",
        "{\"requestId\": \"\", \"context\": [0, 0]}", "MISSING_REQUEST_ID");
    for (Map.Entry<String, String> bad : bodies.entrySet()) {
      HttpResponse<String> response = post("/v1/bandits/offers/decide", bad.getKey());
      assertEquals(400, response.statusCode(), bad.getKey());
      assertEquals(bad.getValue(), json(response).get("error").asText(), bad.getKey());
    }
    Map<String, String> rewards = Map.of(
        "{\"requestId\": \"a\"}", "BAD_REQUEST",
        "{\"requestId\": \"a\", \"reward\": \"1\"}", "BAD_REQUEST",
        "{\"requestId\": \"a\", \"reward\": 1.5}", "INVALID_REWARD",
        "{\"requestId\": \"a\", \"reward\": -1e999}", "NON_FINITE_NUMBER");
    for (Map.Entry<String, String> bad : rewards.entrySet()) {
      HttpResponse<String> response = post("/v1/bandits/offers/reward", bad.getKey());
      assertEquals(400, response.statusCode(), bad.getKey());
      assertEquals(bad.getValue(), json(response).get("error").asText(), bad.getKey());
    }
    assertEquals(404, post("/v1/bandits/nobody/decide", "{\"requestId\": \"a\", \"context\": [0, 0]}").statusCode());
    assertEquals(404, post("/v1/bandits/nobody/reward", "{\"requestId\": \"a\", \"reward\": 1}").statusCode());
    assertEquals(404, post("/v1/bandits/offers/explode", "{}").statusCode());
    HttpResponse<String> get = client.send(HttpRequest.newBuilder(
        URI.create("http://localhost:" + server.port() + "/v1/bandits/offers/decide")).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(405, get.statusCode());
    assertEquals(0, producer.history().size(), "bad input writes nothing");
    // And the server still answers.
    assertEquals(200, post("/v1/bandits/offers/decide", "{\"requestId\": \"ok\", \"context\": [0, 0]}").statusCode());
  }

  @Test
  void aRewardIsWrittenToTheRewardsTopic() throws Exception {
    start(true);
    HttpResponse<String> response = post("/v1/bandits/offers/reward", "{\"requestId\": \"q9\", \"reward\": 0.25}");
    assertEquals(200, response.statusCode(), response.body());
    assertEquals("q9", json(response).get("requestId").asText());
    ProducerRecord<String, byte[]> sent = producer.history().get(0);
    assertEquals(TOPICS.rewards().name(), sent.topic());
    assertEquals(0.25, DpSerdes.reward().decodeOrThrow(sent.value()).getReward());
  }

  @Test
  void aDecisionIsAnsweredOnceHandedToTheProducerAndIfItsLogWriteFailsItIsCountedItsRewardRefusedAndItsRetryWritesItAgain()
      throws Exception {
    start(false);
    // Answered with nothing acknowledged yet: the decision was handed to the producer.
    HttpResponse<String> first = post("/v1/bandits/offers/decide", "{\"requestId\": \"q1\", \"context\": [0, 0]}");
    assertEquals(200, first.statusCode(), first.body());
    assertEquals(2, producer.history().size(), "the log record and the decision were handed over");
    assertEquals(TOPICS.decided().name(), producer.history().get(0).topic());
    assertTrue(producer.errorNext(new RuntimeException("broker gone"))); // the log write fails later
    assertTrue(producer.completeNext()); // dp.decisions got it
    assertEquals(1.0, meters.get("dpstream.decider.log.write.failures").tag("bandit", "offers").counter().count());

    // Its reward cannot be joined (learning never saw the decision): refused with a reason, nothing written.
    HttpResponse<String> reward = post("/v1/bandits/offers/reward", "{\"requestId\": \"q1\", \"reward\": 0.5}");
    assertEquals(409, reward.statusCode(), reward.body());
    assertEquals("DECISION_NOT_LOGGED", json(reward).get("error").asText());
    assertEquals(2, producer.history().size(), "no reward record");
    assertEquals(1.0, meters.get("dpstream.decider.rewards.refused").tags("bandit", "offers", "reason",
        "DECISION_NOT_LOGGED").counter().count());

    // The same request decided again: the same decision (not one at the newer step), and the log record again.
    releaseStep7();
    HttpResponse<String> retry = post("/v1/bandits/offers/decide", "{\"requestId\": \"q1\", \"context\": [0, 0]}");
    assertEquals(200, retry.statusCode(), retry.body());
    assertEquals(json(first), json(retry));
    assertEquals(0, json(retry).get("modelStep").asLong(), "the decision first made, not one at step 7");
    assertEquals(TOPICS.decided().name(), producer.history().get(2).topic(), "the log record is written again");
    // The reward is answered at once, but written only once its decision's write is acknowledged.
    HttpResponse<String> rewarded = post("/v1/bandits/offers/reward", "{\"requestId\": \"q1\", \"reward\": 0.5}");
    assertEquals(200, rewarded.statusCode(), rewarded.body());
    assertEquals(4, producer.history().size(), "the reward waits for its decision's acknowledgement");
    assertTrue(producer.completeNext() && producer.completeNext()); // the retry's log record and decision
    awaitSends(5); // then the reward is sent
    assertTrue(producer.completeNext());
    assertEquals(TOPICS.rewards().name(), producer.history().get(4).topic());
    assertEquals(2.0, meters.get("dpstream.decider.decisions").tags("bandit", "offers", "path", "http").counter().count());
  }

  @Test
  void aRewardIsAnsweredBeforeItsAcknowledgementAndAWriteThatFailsLaterIsCountedOrADecisionThatFailedRefusesIt()
      throws Exception {
    start(false);
    // A decision still in flight, then its reward: answered at once, nothing written before the decision is.
    assertEquals(200, post("/v1/bandits/offers/decide", "{\"requestId\": \"q1\", \"context\": [0, 0]}").statusCode());
    HttpResponse<String> reward = post("/v1/bandits/offers/reward", "{\"requestId\": \"q1\", \"reward\": 0.5}");
    assertEquals(200, reward.statusCode(), reward.body());
    assertEquals(2, producer.history().size(), "the reward is not written before its decision is acknowledged");
    assertTrue(producer.completeNext() && producer.completeNext());
    awaitSends(3);
    assertEquals(TOPICS.rewards().name(), producer.history().get(2).topic());
    // The reward's own write fails after it was answered: counted, not refused.
    assertTrue(producer.errorNext(new RuntimeException("broker gone")));
    assertEquals(1.0, meters.get("dpstream.decider.reward.write.failures").tag("bandit", "offers").counter().count());

    // A decision in flight whose log write then fails: its reward, answered already, is never written and is
    // counted as refused.
    assertEquals(200, post("/v1/bandits/offers/decide", "{\"requestId\": \"q2\", \"context\": [0, 0]}").statusCode());
    assertEquals(200, post("/v1/bandits/offers/reward", "{\"requestId\": \"q2\", \"reward\": 0.5}").statusCode());
    assertTrue(producer.errorNext(new RuntimeException("broker gone")));
    assertTrue(producer.completeNext());
    assertEquals(5, producer.history().size(), "no reward record for a decision that was not logged");
    assertEquals(1.0, meters.get("dpstream.decider.rewards.refused").tags("bandit", "offers", "reason",
        "DECISION_NOT_LOGGED").counter().count());
    assertEquals(1.0, meters.get("dpstream.decider.reward.write.failures").tag("bandit", "offers").counter().count(),
        "the reward that was never handed over is not a failed reward write");
  }

  @Test
  void aWriteThatFailsAtOnceIsA503AndNothingIsAnswered() throws Exception {
    start(true);
    producer.close(); // send() now throws at once: nothing was handed to Kafka
    HttpResponse<String> refused = post("/v1/bandits/offers/decide", "{\"requestId\": \"q2\", \"context\": [0, 0]}");
    assertEquals(503, refused.statusCode(), refused.body());
    assertEquals("NOT_WRITTEN", json(refused).get("error").asText());
  }

  private void awaitSends(int count) throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (producer.history().size() < count && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertEquals(count, producer.history().size());
  }
}
