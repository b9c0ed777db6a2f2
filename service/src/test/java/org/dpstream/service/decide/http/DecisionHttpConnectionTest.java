package org.dpstream.service.decide.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.producer.MockProducer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The decision API's HTTP framing, on raw sockets (a client library would hide it): pipelining, keep-alive and
 * its end, bodies over the limit, HTTP that cannot be decoded. Each test runs on both transports (epoll where
 * Netty's native library loads, and NIO, the fallback elsewhere).
 */
class DecisionHttpConnectionTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DECIDE = "/v1/bandits/offers/decide";

  private MockProducer<String, byte[]> producer;
  private DecisionHttpServer server;

  private void start(DecisionHttpServer.Transport transport) throws Exception {
    OffersDecisions decisions = new OffersDecisions(true);
    producer = decisions.producer;
    server = DecisionHttpServer.start(decisions.service, ApiSecurity.none(), null, 0, 2, transport);
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @ParameterizedTest
  @EnumSource(DecisionHttpServer.Transport.class)
  void pipelinedRequestsOnOneConnectionAreAnsweredInOrder(DecisionHttpServer.Transport transport) throws Exception {
    start(transport);
    try (Connection connection = new Connection(server.port())) {
      // Five requests in one write: decisions, a reward, a refusal and a 404 in between.
      StringBuilder pipelined = new StringBuilder();
      for (int i = 0; i < 3; i++) {
        pipelined.append(post(DECIDE, "{\"requestId\":\"p" + i + "\",\"context\":[0," + i + "]}", ""));
      }
      pipelined.append(post("/v1/bandits/offers/reward", "{\"requestId\":\"p0\",\"reward\":1}", ""));
      pipelined.append(post(DECIDE, "{\"requestId\":\"p0\",\"context\":[9,9]}", ""));
      pipelined.append(post("/v1/bandits/nobody/decide", "{\"requestId\":\"p4\",\"context\":[0,0]}", ""));
      pipelined.append(post(DECIDE, "{\"requestId\":\"p5\",\"context\":[0,5]}", ""));
      connection.send(pipelined.toString());
      for (int i = 0; i < 3; i++) {
        Answer answer = connection.read();
        assertEquals(200, answer.status(), answer.body());
        assertEquals("p" + i, answer.json().get("requestId").asText());
      }
      Answer reward = connection.read();
      assertEquals(200, reward.status(), reward.body());
      assertEquals("p0", reward.json().get("requestId").asText());
      assertEquals("DUPLICATE_REQUEST", connection.read().json().get("error").asText());
      assertEquals("UNKNOWN_BANDIT", connection.read().json().get("error").asText());
      assertEquals("p5", connection.read().json().get("requestId").asText());
    }
    assertEquals(4 * 2 + 1, producer.history().size(), "four decisions (log and dp.decisions) and a reward");
  }

  @ParameterizedTest
  @EnumSource(DecisionHttpServer.Transport.class)
  void aBodyOverTheLimitIs400TooLargeNothingIsDecidedAndTheConnectionServesTheNextRequest(
      DecisionHttpServer.Transport transport) throws Exception {
    start(transport);
    // A valid decision padded with spaces to one byte over 1 MiB: refused for its size, not decided.
    String decision = "{\"requestId\":\"big\",\"context\":[0,0]}";
    String padded = decision + " ".repeat(DecisionHttpServer.MAX_BODY_BYTES + 1 - decision.length());
    try (Connection connection = new Connection(server.port())) {
      connection.send(post(DECIDE, padded, ""));
      Answer byLength = connection.read();
      assertEquals(400, byLength.status(), byLength.body());
      assertEquals("TOO_LARGE", byLength.json().get("error").asText());
      // The same without a Content-Length (chunked): found out as the chunks arrive.
      connection.send("POST " + DECIDE + " HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
          + chunk(padded.substring(0, 600_000)) + chunk(padded.substring(600_000)) + "0\r\n\r\n");
      Answer chunked = connection.read();
      assertEquals(400, chunked.status(), chunked.body());
      assertEquals("TOO_LARGE", chunked.json().get("error").asText());
      // A body of exactly the limit is read, and the connection still serves.
      String atTheLimit = "{\"requestId\":\"limit\",\"context\":[0,0]}";
      connection.send(post(DECIDE,
          atTheLimit + " ".repeat(DecisionHttpServer.MAX_BODY_BYTES - atTheLimit.length()), ""));
      Answer decided = connection.read();
      assertEquals(200, decided.status(), decided.body());
      assertEquals("limit", decided.json().get("requestId").asText());
    }
    assertEquals(2, producer.history().size(), "only the request within the limit was decided (log, dp.decisions)");
  }

  @ParameterizedTest
  @EnumSource(DecisionHttpServer.Transport.class)
  void aBodyOverTheLimitAnnouncedWithExpectContinueIsRefusedBeforeItIsSent(DecisionHttpServer.Transport transport)
      throws Exception {
    start(transport);
    try (Connection connection = new Connection(server.port())) {
      connection.send("POST " + DECIDE + " HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: "
          + (DecisionHttpServer.MAX_BODY_BYTES + 1) + "\r\n\r\n");
      Answer refused = connection.read();
      assertEquals(400, refused.status(), refused.body());
      assertEquals("TOO_LARGE", refused.json().get("error").asText());
      assertEquals("close", refused.header("connection"));
      assertTrue(connection.closedByServer());
    }
    try (Connection connection = new Connection(server.port())) {
      // Within the limit: 100 Continue, then the answer.
      String body = "{\"requestId\":\"e1\",\"context\":[0,0]}";
      connection.send("POST " + DECIDE + " HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: "
          + body.length() + "\r\n\r\n");
      assertEquals(100, connection.read().status());
      connection.send(body);
      assertEquals(200, connection.read().status());
    }
    assertEquals(2, producer.history().size());
  }

  @ParameterizedTest
  @EnumSource(DecisionHttpServer.Transport.class)
  void malformedHttpIsAnswered400AndClosedWhileAnotherConnectionIsStillServed(DecisionHttpServer.Transport transport)
      throws Exception {
    start(transport);
    try (Connection healthy = new Connection(server.port())) {
      healthy.send(post(DECIDE, "{\"requestId\":\"h1\",\"context\":[0,0]}", ""));
      assertEquals(200, healthy.read().status());
      Map<String, String> malformed = Map.of(
          "a request line that is not HTTP", "this is not HTTP\r\n\r\n",
          "headers over 8 KiB", "POST " + DECIDE + " HTTP/1.1\r\nX-Big: " + "x".repeat(9_000) + "\r\n\r\n",
          "a Content-Length that is not a number", "POST " + DECIDE + " HTTP/1.1\r\nContent-Length: lots\r\n\r\n",
          "a chunk size that is not hex", "POST " + DECIDE + " HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n");
      for (Map.Entry<String, String> bad : malformed.entrySet()) {
        try (Connection broken = new Connection(server.port())) {
          broken.send(bad.getValue());
          Answer answer = broken.read();
          assertEquals(400, answer.status(), bad.getKey() + ": " + answer.body());
          assertEquals("BAD_REQUEST", answer.json().get("error").asText(), bad.getKey());
          assertEquals("close", answer.header("connection"), bad.getKey());
          assertTrue(broken.closedByServer(), bad.getKey());
        }
        // The other connection, kept open meanwhile, is still served.
        healthy.send(post(DECIDE, "{\"requestId\":\"h-" + bad.getKey() + "\",\"context\":[0,0]}", ""));
        assertEquals(200, healthy.read().status(), bad.getKey());
      }
    }
    assertEquals(2 * 5, producer.history().size(), "only the healthy connection's decisions");
  }

  @ParameterizedTest
  @EnumSource(DecisionHttpServer.Transport.class)
  void http10AndConnectionCloseCloseTheConnectionAfterTheAnswer(DecisionHttpServer.Transport transport)
      throws Exception {
    start(transport);
    String body = "{\"requestId\":\"c1\",\"context\":[0,0]}";
    try (Connection connection = new Connection(server.port())) {
      connection.send("POST " + DECIDE + " HTTP/1.0\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);
      Answer answer = connection.read();
      assertEquals(200, answer.status(), answer.body());
      assertEquals("close", answer.header("connection"));
      assertTrue(connection.closedByServer(), "HTTP/1.0 without keep-alive: closed after the answer");
    }
    try (Connection connection = new Connection(server.port())) {
      // An HTTP/1.0 client asking to keep the connection keeps it.
      connection.send("POST " + DECIDE + " HTTP/1.0\r\nConnection: keep-alive\r\nContent-Length: " + body.length()
          + "\r\n\r\n" + body);
      Answer kept = connection.read();
      assertEquals(200, kept.status(), kept.body());
      assertEquals("keep-alive", kept.header("connection"));
      connection.send(post(DECIDE, body, ""));
      assertEquals(200, connection.read().status());
    }
    try (Connection connection = new Connection(server.port())) {
      // HTTP/1.1 with Connection: close, and a request pipelined after it: answered once, then closed.
      connection.send(post(DECIDE, body, "Connection: close\r\n") + post(DECIDE, body.replace("c1", "c2"), ""));
      Answer answer = connection.read();
      assertEquals(200, answer.status(), answer.body());
      assertEquals("close", answer.header("connection"));
      assertTrue(connection.closedByServer(), "nothing answered after Connection: close");
    }
    assertEquals(2, producer.history().size(), "c1 decided once (then answered from memory), c2 never");
  }

  private static String post(String path, String body, String headers) {
    return "POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n" + headers
        + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
  }

  private static String chunk(String data) {
    return Integer.toHexString(data.length()) + "\r\n" + data + "\r\n";
  }

  /** An answer as read off the socket. */
  private record Answer(int status, Map<String, String> headers, String body) {
    JsonNode json() throws IOException {
      return JSON.readTree(body);
    }

    String header(String name) {
      return headers.get(name);
    }
  }

  /** One raw connection: writes bytes as given, reads answers by their Content-Length. */
  private static final class Connection implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    Connection(int port) throws IOException {
      socket = new Socket("localhost", port);
      socket.setSoTimeout(10_000);
      out = socket.getOutputStream();
      in = new BufferedInputStream(socket.getInputStream());
    }

    void send(String text) throws IOException {
      out.write(text.getBytes(StandardCharsets.UTF_8));
      out.flush();
    }

    Answer read() throws IOException {
      String statusLine = line();
      int status = Integer.parseInt(statusLine.substring(9, 12));
      Map<String, String> headers = new HashMap<>();
      for (String header = line(); !header.isEmpty(); header = line()) {
        int colon = header.indexOf(':');
        headers.put(header.substring(0, colon).trim().toLowerCase(Locale.ROOT), header.substring(colon + 1).trim());
      }
      int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
      return new Answer(status, headers, new String(in.readNBytes(length), StandardCharsets.UTF_8));
    }

    /** Whether the server closed the connection (end of stream, or reset) with nothing more to read. */
    boolean closedByServer() throws IOException {
      try {
        return in.read() < 0;
      } catch (SocketTimeoutException e) {
        return false;
      } catch (IOException reset) {
        return true;
      }
    }

    private String line() throws IOException {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      for (int c = in.read(); c != '\n'; c = in.read()) {
        if (c < 0) {
          throw new IOException("connection closed");
        }
        if (c != '\r') {
          line.write(c);
        }
      }
      return line.toString(StandardCharsets.US_ASCII);
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
