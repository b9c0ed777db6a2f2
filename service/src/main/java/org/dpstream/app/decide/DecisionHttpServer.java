package org.dpstream.app.decide;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.dpstream.app.bandit.BanditRejection;
import org.dpstream.schemas.DecisionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The decision API on the JDK's HTTP server (measured in docs/benchmarks.md; it needs no dependency):
 *
 * <ul>
 *   <li>{@code POST /v1/bandits/{id}/decide} {@code {"requestId": "...", "context": [...]}} answers 200
 *       {@code {"requestId": ..., "arm": k, "modelStep": n, "phase": "WARM_UP"|"GREEDY"}} once the decision
 *       is handed to the producer of the decision log and dp.decisions (not after their acknowledgement);
 *   <li>{@code POST /v1/bandits/{id}/reward} {@code {"requestId": "...", "reward": r}} answers 200
 *       {@code {"requestId": ...}} once the reward is handed to the producer, or queued behind its decision's
 *       write (it is written only after the decision's acknowledgement), not after its own acknowledgement.
 * </ul>
 *
 * Bad input: 400 with {@code {"error": CODE, "message": ...}} and nothing written; an unknown bandit 404;
 * a request id already decided for another context 409;
 * another method 405; a write that failed before anything was answered 503 (retry with the same request id:
 * same decision); a reward whose decision's log write had already failed 409 {@code DECISION_NOT_LOGGED}. The
 * OpenAPI description is docs/openapi/decisions.yaml.
 */
public final class DecisionHttpServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(DecisionHttpServer.class);
  static final String PREFIX = "/v1/bandits/";
  /** Larger bodies are refused before they are read whole. */
  static final int MAX_BODY_BYTES = 1 << 20;
  private static final long WRITE_WAIT_SECONDS = 60;
  private static final String NODELAY = "sun.net.httpserver.nodelay";

  private final HttpServer server;
  private final ExecutorService threads;
  private final DecisionService decisions;
  /**
   * Contexts are arrays of doubles: Jackson's fast double parser (the same value as Double.parseDouble) was
   * measured to matter, the JDK's parser was the largest single cost of a decision (docs/benchmarks.md).
   */
  private final ObjectMapper json = JsonMapper.builder().enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER).build();

  private DecisionHttpServer(HttpServer server, ExecutorService threads, DecisionService decisions) {
    this.server = server;
    this.threads = threads;
    this.decisions = decisions;
  }

  /**
   * Serves on {@code port} (0: any free port) with {@code threads} handler threads.
   *
   * <p>The JDK server writes a response's headers and body separately; without TCP_NODELAY (its default)
   * Nagle's algorithm holds the body back until the client's delayed ACK, some 40 ms. The switch is a
   * system property read once, when the JDK server's configuration is first loaded, so it is set here
   * unless the operator set it.
   */
  public static DecisionHttpServer start(DecisionService decisions, int port, int threadCount) throws IOException {
    if (System.getProperty(NODELAY) == null) {
      System.setProperty(NODELAY, "true");
    }
    HttpServer server = HttpServer.create(new InetSocketAddress(port), 1024);
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor threads = new ThreadPoolExecutor(threadCount, threadCount, 0, TimeUnit.MILLISECONDS,
        new LinkedBlockingQueue<>(), r -> {
          Thread t = new Thread(r, "dpstream-decisions-http-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
    // Started now, not one by one under the first requests.
    threads.prestartAllCoreThreads();
    DecisionHttpServer api = new DecisionHttpServer(server, threads, decisions);
    server.createContext(PREFIX, api::handle);
    server.setExecutor(threads);
    server.start();
    return api;
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private void handle(HttpExchange exchange) throws IOException {
    long began = System.nanoTime();
    try {
      String path = exchange.getRequestURI().getPath();
      int slash = path.lastIndexOf('/');
      String action = path.substring(slash + 1);
      String banditId = slash > PREFIX.length() ? path.substring(PREFIX.length(), slash) : "";
      if (!action.equals("decide") && !action.equals("reward") || banditId.isEmpty()) {
        respond(exchange, 404, error("NOT_FOUND", "POST /v1/bandits/{id}/decide or /v1/bandits/{id}/reward"));
        return;
      }
      if (!"POST".equals(exchange.getRequestMethod())) {
        exchange.getResponseHeaders().set("Allow", "POST");
        respond(exchange, 405, error("METHOD_NOT_ALLOWED", "only POST"));
        return;
      }
      JsonNode body = body(exchange);
      if (body == null) {
        return;
      }
      if (action.equals("decide")) {
        decide(exchange, banditId, body, began);
      } else {
        reward(exchange, banditId, body);
      }
    } catch (RuntimeException e) {
      // Never a stopped server: anything unexpected is this request's 500, the next request is served.
      // The class only: a message could quote the request's data.
      LOG.warn("decision API: a request failed with {}", e.getClass().getName());
      respond(exchange, 500, error("INTERNAL_ERROR", e.getClass().getSimpleName()));
    } finally {
      exchange.close();
    }
  }

  private void decide(HttpExchange exchange, String banditId, JsonNode body, long began) throws IOException {
    String requestId = text(body, "requestId");
    JsonNode context = body.get("context");
    if (requestId == null || context == null || !context.isArray()) {
      respond(exchange, 400, error("BAD_REQUEST", "the body must be {\"requestId\": \"...\", \"context\": [numbers]}"));
      return;
    }
    List<Double> values = new ArrayList<>(context.size());
    for (JsonNode v : context) {
      if (!v.isNumber()) {
        respond(exchange, 400, error("WRONG_TYPE", "context[" + values.size() + "] is not a number"));
        return;
      }
      values.add(v.doubleValue());
    }
    DecisionService.Handed decided;
    try {
      decided = decisions.decideAndHand(banditId, requestId, values, System.currentTimeMillis(), false);
    } catch (Decider.Refused refused) {
      respond(exchange, status(refused), error(refused.code(), refused.getMessage()));
      return;
    }
    // Answered once handed to the producer, not after its acknowledgement (docs/bandit-decider.md): only a write
    // that failed at once (nothing handed) is a 503.
    if (!decided.written().isCompletedExceptionally() || awaited(exchange, decided.written(), requestId)) {
      DecisionResponse response = decided.response();
      StringBuilder answer = new StringBuilder(80 + requestId.length()).append("{\"requestId\":");
      quoted(answer, response.getRequestId()).append(",\"arm\":").append(response.getArm()).append(",\"modelStep\":")
          .append(response.getModelStep()).append(",\"phase\":\"").append(response.getPhase().name()).append("\"}");
      respond(exchange, 200, answer.toString().getBytes(StandardCharsets.UTF_8));
      decisions.metrics().decided(banditId, DeciderMetrics.Path.HTTP, response.getPhase(), System.nanoTime() - began);
    }
  }

  private void reward(HttpExchange exchange, String banditId, JsonNode body) throws IOException {
    String requestId = text(body, "requestId");
    JsonNode reward = body.get("reward");
    if (requestId == null || reward == null || !reward.isNumber()) {
      respond(exchange, 400, error("BAD_REQUEST", "the body must be {\"requestId\": \"...\", \"reward\": number}"));
      return;
    }
    CompletableFuture<Void> written;
    try {
      written = decisions.reward(banditId, requestId, reward.doubleValue(), System.currentTimeMillis());
    } catch (Decider.Refused refused) {
      respond(exchange, status(refused), error(refused.code(), refused.getMessage()));
      return;
    }
    // As a decision: answered once handed to the producer (or queued behind its decision's write), not after
    // the acknowledgement; only what failed at once (its decision's log write failed, nothing handed) is refused.
    if (!written.isCompletedExceptionally() || awaited(exchange, written, requestId)) {
      respond(exchange, 200, quoted(new StringBuilder(20 + requestId.length()).append("{\"requestId\":"), requestId)
          .append('}').toString().getBytes(StandardCharsets.UTF_8));
    }
  }

  /** Whether the write succeeded; false once a 503 was sent. */
  private boolean awaited(HttpExchange exchange, CompletableFuture<?> future, String requestId) throws IOException {
    try {
      future.get(WRITE_WAIT_SECONDS, TimeUnit.SECONDS);
      return true;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof DecisionService.DecisionNotLogged notLogged) {
        respond(exchange, 409, error(DecisionService.DecisionNotLogged.REASON, notLogged.getMessage()));
      } else {
        respond(exchange, 503, error("NOT_WRITTEN", "request " + requestId
            + " could not be written to Kafka; retry with the same requestId (same decision)"));
      }
      return false;
    } catch (TimeoutException e) {
      respond(exchange, 503, error("NOT_WRITTEN", "request " + requestId
          + " could not be written to Kafka; retry with the same requestId (same decision)"));
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      respond(exchange, 503, error("NOT_WRITTEN", "the service is stopping"));
      return false;
    }
  }

  private static int status(Decider.Refused refused) {
    if (refused.code().equals(BanditRejection.UNKNOWN_BANDIT.name())) {
      return 404;
    }
    return refused.code().equals(BanditRejection.DUPLICATE_REQUEST.name()) ? 409 : 400;
  }

  /** The parsed body, or null once a 400 was sent (too large, not JSON, not an object). */
  private JsonNode body(HttpExchange exchange) throws IOException {
    byte[] bytes;
    try (InputStream in = exchange.getRequestBody()) {
      // With a Content-Length (what clients send), one array of that size: readNBytes(limit) alone allocates
      // 8 KiB buffers and a copy per request, the largest share of the API's garbage with the JDK server's own.
      long declared = declaredLength(exchange);
      bytes = declared >= 0 && declared <= MAX_BODY_BYTES ? in.readNBytes((int) declared)
          : in.readNBytes(MAX_BODY_BYTES + 1);
    }
    if (bytes.length > MAX_BODY_BYTES) {
      respond(exchange, 400, error("TOO_LARGE", "the body is larger than " + MAX_BODY_BYTES + " bytes"));
      return null;
    }
    JsonNode body;
    try {
      body = json.readTree(bytes);
    } catch (JsonParseException e) {
      respond(exchange, 400, error("UNDECODABLE", "the body is not JSON: " + e.getOriginalMessage()));
      return null;
    } catch (IOException e) {
      respond(exchange, 400, error("UNDECODABLE", "the body is not JSON"));
      return null;
    }
    if (body == null || !body.isObject()) {
      respond(exchange, 400, error("BAD_REQUEST", "the body must be a JSON object"));
      return null;
    }
    return body;
  }

  /** The request's Content-Length, or -1 without one (chunked) or if it is not a number. */
  private static long declaredLength(HttpExchange exchange) {
    String length = exchange.getRequestHeaders().getFirst("Content-Length");
    if (length == null) {
      return -1;
    }
    try {
      return Long.parseLong(length.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static String text(JsonNode body, String field) {
    JsonNode node = body.get(field);
    return node != null && node.isTextual() ? node.asText() : null;
  }

  private ObjectNode error(String code, String message) {
    ObjectNode error = json.createObjectNode();
    error.put("error", code);
    error.put("message", message);
    return error;
  }

  /** Appends {@code text} as a JSON string (a 200's answer is written by hand: no tree, one array). */
  private static StringBuilder quoted(StringBuilder out, String text) {
    out.append('"');
    JsonStringEncoder.getInstance().quoteAsString(text, out);
    return out.append('"');
  }

  private void respond(HttpExchange exchange, int status, JsonNode body) throws IOException {
    respond(exchange, status, json.writeValueAsBytes(body));
  }

  private void respond(HttpExchange exchange, int status, byte[] bytes) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
