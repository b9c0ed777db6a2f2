package org.dpstream.service.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The decision API of one bandit of a service under test, as one caller: decide, reward, and wait for it to come
 * up.
 */
final class DecisionApiClient {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http = HttpClient.newHttpClient();
  private final String base;
  private final String token;

  /** @param token the caller's bearer token, or null for an API with {@code authentication: none} */
  DecisionApiClient(int port, String banditId, String token) {
    this.base = "http://localhost:" + port + "/v1/bandits/" + banditId;
    this.token = token;
  }

  /** Waits until the API answers (a request without a body is refused with 400), failing if the process exits. */
  void awaitUp(ServiceProcess process, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      assertTrue(process.isAlive(), () -> "the service exited:\n" + process.logTail());
      try {
        if (post("/decide", "{}").statusCode() == 400) {
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      Thread.sleep(200);
    }
    throw new AssertionError("the decision API did not come up:\n" + process.logTail());
  }

  /** The decision for {@code requestId} on {@code context} (a JSON array's contents), asserting a 200. */
  JsonNode decide(String requestId, String context) throws IOException, InterruptedException {
    HttpResponse<String> response = post("/decide", "{\"requestId\":\"" + requestId + "\",\"context\":[" + context + "]}");
    assertEquals(200, response.statusCode(), response.body());
    return JSON.readTree(response.body());
  }

  /** Sends a reward, asserting a 200. */
  void reward(String requestId, double reward) throws IOException, InterruptedException {
    HttpResponse<String> response = post("/reward", "{\"requestId\":\"" + requestId + "\",\"reward\":" + reward + "}");
    assertEquals(200, response.statusCode(), response.body());
  }

  /** POSTs {@code body} to {@code path} under the bandit. */
  HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return http.send(request.POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
