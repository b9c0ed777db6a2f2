package org.dpstream.bench.bandite2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.DoubleStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link HttpLoad} against a stub of the decision API (the JDK's HTTP server). */
@Timeout(60)
class HttpLoadTest {

  private static final String BANDIT = "b";
  private static final int ARMS = 4;
  private static final Pattern REQUEST_ID = Pattern.compile("^\\{\"requestId\":\"(\\d+)\"");

  static {
    // As the service's own API does: without it the JDK server's header and body writes meet delayed ACKs.
    System.setProperty("sun.net.httpserver.nodelay", "true");
  }

  private final StubApi api = new StubApi();

  @AfterEach
  void stop() {
    api.stop();
  }

  @ParameterizedTest(name = "rate {0}")
  @ValueSource(doubles = {0, 3000})
  void everyRequestIsSentOnceWithItsBodyAndAnsweredByOneRewardForItsArm(double rate) throws Exception {
    int requests = 400;
    int connections = 8;
    Workload workload = new Workload(3, ARMS, requests, 7, rate);

    String client = HttpLoad.run(workload, api.port(), BANDIT, "t0ken", connections, 3);

    assertEquals(requests, workload.decisions());
    assertEquals(requests, api.decideBodies.size());
    assertEquals(requests, api.rewardBodies.size());
    for (int i = 0; i < requests; i++) {
      assertEquals(1, api.decideCounts.get(i).get(), "decide requests of " + i);
      assertEquals(1, api.rewardCounts.get(i).get(), "reward requests of " + i);
      String context = DoubleStream.of(workload.rounds[i].context()).mapToObj(Double::toString)
          .collect(Collectors.joining(","));
      assertEquals("{\"requestId\":\"" + i + "\",\"context\":[" + context + "]}", api.decideBodies.get(i));
      assertEquals("{\"requestId\":\"" + i + "\",\"reward\":" + workload.rounds[i].observedReward(StubApi.armOf(i))
          + "}", api.rewardBodies.get(i));
    }
    // Keep-alive connections: the decisions on exactly `connections` of them (at rate 0 all are busy at once,
    // at 3,000/s the free ones are taken in turn), the rewards on their own, at most 3.
    assertEquals(connections, api.decidePorts.size());
    assertTrue(api.rewardPorts.size() <= 3, api.rewardPorts.toString());
    Set<Integer> shared = new HashSet<>(api.decidePorts);
    shared.retainAll(api.rewardPorts);
    assertEquals(Set.of(), shared);
    assertTrue(client.contains(connections + " decision + 3 reward keep-alive connections"), client);
  }

  @Test
  void latencyCountsFromTheDueTimeSoWaitingForAConnectionCounts() throws Exception {
    api.decideDelayMillis = 20;
    int requests = 8;
    // 1,000 requests/s: request i is due i ms after the start, but one connection serves them one at a time,
    // 20 ms each, so request i is answered no earlier than 20 (i + 1) ms after the start.
    Workload workload = new Workload(3, ARMS, requests, 7, 1000);

    HttpLoad.run(workload, api.port(), BANDIT, "t0ken", 1, 1);

    for (int i = 0; i < requests; i++) {
      long atLeast = (20L * (i + 1) - i) * 1_000_000L;
      assertTrue(workload.latencyNanos(i) >= atLeast,
          "request " + i + ": " + workload.latencyNanos(i) + " ns < " + atLeast + " ns");
    }
  }

  @Test
  void aDecisionAnsweredWithAnErrorFailsTheRunNamingItsStatusAndBody() {
    api.decideStatus = 503;
    assertTheRunFailsSaying("decide answered 503: {\"error\":\"stub says no\"}");
  }

  @Test
  void aRewardAnsweredWithAnErrorFailsTheRunNamingItsStatusAndBody() {
    api.rewardStatus = 400;
    assertTheRunFailsSaying("reward answered 400: {\"error\":\"stub says no\"}");
  }

  private void assertTheRunFailsSaying(String message) {
    Workload workload = new Workload(3, ARMS, 50, 7, 0);

    IOException failure = assertThrows(IOException.class, () -> HttpLoad.run(workload, api.port(), BANDIT, "t0ken", 4, 2));

    assertTrue(failure.getMessage().contains(message), failure.getMessage());
  }

  @Test
  void withoutARateEachConnectionKeepsOneRequestInFlight() throws Exception {
    api.decideDelayMillis = 3;
    int connections = 3;
    Workload workload = new Workload(3, ARMS, 90, 7, 0);

    HttpLoad.run(workload, api.port(), BANDIT, "t0ken", connections, 3);

    assertEquals(90, workload.decisions());
    // Never more than one request per connection (no pipelining), and all of them busy at once.
    assertEquals(connections, api.mostDecisionsInFlight.get());
  }

  /**
   * The decision API's two endpoints: records each body by request id and the client port it came on, and
   * answers a decision with arm {@code requestId mod 4}, after an optional delay, or with a chosen status.
   */
  private static final class StubApi {

    final Map<Integer, String> decideBodies = new ConcurrentHashMap<>();
    final Map<Integer, String> rewardBodies = new ConcurrentHashMap<>();
    final Map<Integer, AtomicInteger> decideCounts = new ConcurrentHashMap<>();
    final Map<Integer, AtomicInteger> rewardCounts = new ConcurrentHashMap<>();
    final Set<Integer> decidePorts = ConcurrentHashMap.newKeySet();
    final Set<Integer> rewardPorts = ConcurrentHashMap.newKeySet();
    final AtomicInteger decisionsInFlight = new AtomicInteger();
    final AtomicInteger mostDecisionsInFlight = new AtomicInteger();
    volatile int decideDelayMillis;
    volatile int decideStatus = 200;
    volatile int rewardStatus = 200;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(16);

    StubApi() {
      try {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      server.createContext("/v1/bandits/" + BANDIT + "/decide", this::decide);
      server.createContext("/v1/bandits/" + BANDIT + "/reward", this::reward);
      server.setExecutor(threads);
      server.start();
    }

    static int armOf(int requestId) {
      return requestId % ARMS;
    }

    int port() {
      return server.getAddress().getPort();
    }

    void stop() {
      server.stop(0);
      threads.shutdownNow();
    }

    private void decide(HttpExchange exchange) throws IOException {
      mostDecisionsInFlight.accumulateAndGet(decisionsInFlight.incrementAndGet(), Math::max);
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      int id = requestId(body);
      decideBodies.put(id, body);
      decideCounts.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
      decidePorts.add(exchange.getRemoteAddress().getPort());
      if (decideDelayMillis > 0) {
        try {
          Thread.sleep(decideDelayMillis);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      // Out of flight before the answer leaves: the client may send its next request as soon as it has it.
      decisionsInFlight.decrementAndGet();
      answer(exchange, decideStatus, "{\"requestId\":\"" + id + "\",\"arm\":" + armOf(id)
          + ",\"modelStep\":0,\"phase\":\"WARM_UP\"}");
    }

    private void reward(HttpExchange exchange) throws IOException {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      int id = requestId(body);
      rewardBodies.put(id, body);
      rewardCounts.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
      rewardPorts.add(exchange.getRemoteAddress().getPort());
      answer(exchange, rewardStatus, "{\"requestId\":\"" + id + "\"}");
    }

    private static int requestId(String body) {
      Matcher id = REQUEST_ID.matcher(body);
      if (!id.find()) {
        throw new IllegalArgumentException("no request id in " + body);
      }
      return Integer.parseInt(id.group(1));
    }

    private static void answer(HttpExchange exchange, int status, String okBody) throws IOException {
      byte[] bytes = (status == 200 ? okBody : "{\"error\":\"stub says no\"}").getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }
}
