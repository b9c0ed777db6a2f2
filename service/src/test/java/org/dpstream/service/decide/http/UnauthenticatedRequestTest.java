package org.dpstream.service.decide.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.kafka.clients.producer.MockProducer;
import org.dpstream.service.config.DeciderConfig;

/**
 * A request without valid credentials gets the same 401, byte for byte, whatever it names (a configured bandit or
 * not, a request id decided or not, any path, method or body), and nothing is decided, remembered or written.
 */
class UnauthenticatedRequestTest {

  private static final String TOKEN = ApiTokens.newToken();
  private static final String EXPECTED_BODY = "{\"error\":\"UNAUTHENTICATED\",\"message\":\"the decision API needs a valid"
      + " bearer token or client certificate\"}";
  private static Path tokens;
  private static MockProducer<String, byte[]> producer;
  private static DecisionHttpServer server;
  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  @BeforeContainer
  static void start() throws Exception {
    tokens = Files.createTempFile("dpstream-tokens", "");
    Files.writeString(tokens, ApiTokens.fileLine("alice", TOKEN) + "\n");
    OffersDecisions decisions = new OffersDecisions(true);
    producer = decisions.producer;
    server = DecisionHttpServer.start(decisions.service,
        ApiSecurity.of(DeciderConfig.deciders(0, false).withAuthentication("bearer", tokens.toString())), null, 0, 2);
    // One decision of the known caller, so that "q1" is a request that exists (for alice).
    HttpResponse<String> decided = send("POST", "/v1/bandits/offers/decide", "{\"requestId\":\"q1\",\"context\":[0,0]}",
        "Bearer " + TOKEN);
    assertEquals(200, decided.statusCode(), decided.body());
  }

  @AfterContainer
  static void stop() throws Exception {
    server.close();
    Files.deleteIfExists(tokens);
  }

  private static HttpResponse<String> send(String method, String path, String body, String authorization)
      throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + path))
        .method(method, HttpRequest.BodyPublishers.ofString(body));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Provide
  Arbitrary<String> paths() {
    Arbitrary<String> bandit = Arbitraries.oneOf(Arbitraries.just("offers"),
        Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(8));
    return Arbitraries.oneOf(
        Combinators.combine(bandit, Arbitraries.of("decide", "reward", "explode"))
            .as((id, action) -> "/v1/bandits/" + id + "/" + action),
        Arbitraries.of("/metrics", "/", "/v1/bandits//decide"));
  }

  @Provide
  Arbitrary<String> bodies() {
    return Arbitraries.oneOf(
        Arbitraries.of("{\"requestId\":\"q1\",\"context\":[0,0]}", "{\"requestId\":\"q2\",\"context\":[0,0]}",
            "{\"requestId\":\"q1\",\"reward\":0.5}", "{\"requestId\":\"q1\",\"context\":[0,0,0]}", "not json", "",
            "x".repeat((1 << 20) + 10)),
        Arbitraries.strings().ofMaxLength(40));
  }

  /** No header, another scheme, a wrong token, the right token altered, a token of another file's format. */
  @Provide
  Arbitrary<String> credentials() {
    return Arbitraries.oneOf(
        Arbitraries.of("", "Basic " + TOKEN, "Bearer", "Bearer " + TOKEN + "x", "Bearer " + TOKEN.substring(1),
            TOKEN, "Bearer " + ApiTokens.fileLine("alice", TOKEN)),
        Arbitraries.strings().withCharRange('!', '~').ofMinLength(1).ofMaxLength(60).map(t -> "Bearer " + t));
  }

  @Property(tries = 150, seed = "4113")
  void everyRequestWithoutValidCredentialsGetsTheSame401(@ForAll("paths") String path, @ForAll("bodies") String body,
      @ForAll("credentials") String credential, @ForAll("methods") String method) throws Exception {
    int written = producer.history().size();
    HttpResponse<String> answer = send(method, path, body, credential.isEmpty() ? null : credential);
    assertEquals(401, answer.statusCode());
    assertEquals(EXPECTED_BODY, answer.body());
    assertEquals(List.of("Bearer realm=\"dpstream\""), answer.headers().allValues("www-authenticate"));
    assertEquals(List.of("application/json"), answer.headers().allValues("content-type"));
    assertEquals(written, producer.history().size(), "nothing written");
  }

  @Provide
  Arbitrary<String> methods() {
    return Arbitraries.of("POST", "GET", "PUT", "DELETE");
  }
}
