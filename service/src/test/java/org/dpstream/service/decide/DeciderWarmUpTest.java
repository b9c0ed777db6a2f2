package org.dpstream.service.decide;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalInt;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.config.DeciderConfig;
import org.dpstream.service.decide.follower.ReleaseFollower;
import org.dpstream.service.decide.follower.ReleasedBandits;
import org.dpstream.service.decide.http.ApiSecurity;
import org.dpstream.service.decide.http.ApiTokens;
import org.dpstream.service.decide.http.DecisionHttpServer;
import org.dpstream.service.decide.http.MiniHttpClient;
import org.dpstream.service.decide.producer.DecisionService;
import org.dpstream.service.kafka.Topics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The deciders' warm-up: it exercises the decide path and the API, and writes, remembers and counts nothing. */
class DeciderWarmUpTest {

  private final BanditRegistry registry = new BanditRegistry(Map.of(
      "offers", new BanditConfig("offers", 3, 2, "identity", 1.0, "0.1", 5L, 1, 1e-5, 1_000, 1.0, 1.0, "10s", "drop",
          null, 1).toEntry()));
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final MockProducer<String, byte[]> producer =
      new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
  private DecisionService service;
  private DecisionHttpServer server;
  private ApiSecurity security;
  private final String clientToken = ApiTokens.newToken();
  @TempDir Path work;

  private void start() throws Exception {
    Path tokens = work.resolve("tokens");
    Files.writeString(tokens, ApiTokens.fileLine("client", clientToken) + "\n");
    security = ApiSecurity.of(DeciderConfig.deciders(0, false).withAuthentication("bearer", tokens.toString()));
    ReleasedBandits released = new ReleasedBandits();
    new ReleaseFollower(null, "dp.releases", registry, released);
    Decider decider = new Decider(registry, released,
        new KeyedNoiseSource(NoiseKey.ofBytes(new byte[NoiseKey.MINIMUM_BYTES])));
    service = new DecisionService(decider, Topics.defaults(), producer, 60_000, 1_000, new DeciderMetrics(meters));
    server = DecisionHttpServer.start(service, security, null, 0, 2);
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void itDecidesAndCallsTheApiOnSyntheticRequestsAndWritesRemembersAndCountsNothing() throws Exception {
    start();
    DeciderWarmUp warmUp = new DeciderWarmUp(service, registry, OptionalInt.of(server.port()), security, true, 300, 50,
        60_000);
    assertFalse(warmUp.done(), "not done before it ran: /ready waits for it");
    DeciderWarmUp.Summary summary = warmUp.run();
    assertTrue(warmUp.done());
    assertEquals(300, summary.rehearsed());
    assertEquals(50, summary.httpAnswered(), "every synthetic API request was parsed and refused with 404");
    assertEquals(0, summary.httpUnexpected());
    assertEquals(0, producer.history().size(), "nothing written");
    assertEquals(0, service.remembered(), "nothing remembered");
    assertTrue(meters.find("dpstream.decider.decisions").meters().isEmpty(), "nothing counted as a decision");

    // The synthetic request ids are not a client's: a client's request with the same text is decided afresh.
    try (MiniHttpClient client = new MiniHttpClient(server.port(), "Bearer " + clientToken)) {
      MiniHttpClient.Response response = client.post("/v1/bandits/offers/decide",
          "{\"requestId\":\"warm-up-0\",\"context\":[0,0,0]}".getBytes(StandardCharsets.UTF_8));
      assertEquals(200, response.status(), response.body());
    }
    assertEquals(2, producer.history().size());
  }

  /** The warm-up's credential works only while it runs: afterwards the API refuses it like any unknown token. */
  @Test
  void theWarmUpsTokenIsRefusedOnceTheWarmUpIsOver() throws Exception {
    start();
    String token = security.startWarmUp();
    byte[] body = "{\"requestId\":\"r\",\"context\":[0,0,0]}".getBytes(StandardCharsets.UTF_8);
    try (MiniHttpClient client = new MiniHttpClient(server.port(), "Bearer " + token)) {
      assertEquals(404, client.post(DeciderWarmUp.SYNTHETIC_PATH, body).status());
      security.endWarmUp();
      assertEquals(401, client.post(DeciderWarmUp.SYNTHETIC_PATH, body).status());
      assertEquals(401, client.post("/v1/bandits/offers/decide", body).status());
    }
    new DeciderWarmUp(service, registry, OptionalInt.of(server.port()), security, false, 10, 5, 60_000).run();
    try (MiniHttpClient client = new MiniHttpClient(server.port(), "Bearer " + token)) {
      assertEquals(401, client.post(DeciderWarmUp.SYNTHETIC_PATH, body).status(), "an earlier warm-up's token");
    }
    assertEquals(0, producer.history().size());
  }

  @Test
  void withoutTheApiItStillRehearsesAndFinishes() {
    ReleasedBandits released = new ReleasedBandits();
    new ReleaseFollower(null, "dp.releases", registry, released);
    service = new DecisionService(new Decider(registry, released,
        new KeyedNoiseSource(NoiseKey.ofBytes(new byte[NoiseKey.MINIMUM_BYTES]))), Topics.defaults(), producer,
        60_000, 1_000);
    DeciderWarmUp.Summary summary = new DeciderWarmUp(service, registry, OptionalInt.empty(), null, true, 20, 50,
        60_000).run();
    assertEquals(20, summary.rehearsed());
    assertEquals(0, summary.httpAnswered());
    assertEquals(0, producer.history().size());
  }

  @Test
  void aWarmUpThatFailsStillFinishesSoTheInstanceGetsReady() throws Exception {
    start();
    int port = server.port();
    server.close();
    server = null;
    DeciderWarmUp warmUp = new DeciderWarmUp(service, registry, OptionalInt.of(port), security, false, 10, 50, 60_000);
    DeciderWarmUp.Summary summary = warmUp.run(); // nothing listens on the port any more
    assertTrue(warmUp.done());
    assertEquals(10, summary.rehearsed());
    assertEquals(0, summary.httpAnswered());
  }
}
