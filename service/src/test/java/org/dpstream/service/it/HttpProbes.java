package org.dpstream.service.it;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Predicate;

/** What the ITs ask a running service over HTTP (/ready, /health, /metrics), polled until it answers as expected. */
final class HttpProbes {

  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private HttpProbes() {}

  /** A port free now, for a child service's metricsPort. */
  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  static HttpResponse<String> get(String url) throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> post(String url, String body) throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> awaitStatus(String url, int status, Duration timeout, ServiceProcess process)
      throws Exception {
    return await(url, response -> response.statusCode() == status, timeout, process);
  }

  /** Polls {@code url} until a response matches; connection refusals (server not up yet) are retried. */
  static HttpResponse<String> await(String url, Predicate<HttpResponse<String>> done, Duration timeout,
      ServiceProcess process) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    HttpResponse<String> last = null;
    while (System.nanoTime() < deadline) {
      if (process != null && !process.isAlive()) {
        fail("the service exited\n" + process.logTail());
      }
      try {
        last = get(url);
        if (done.test(last)) {
          return last;
        }
      } catch (IOException notYetListening) {
        // the service is still starting
      }
      Thread.sleep(200);
    }
    fail(url + " did not answer as expected within " + timeout + "; last: "
        + (last == null ? "no answer" : last.statusCode() + " " + last.body())
        + (process == null ? "" : "\n" + process.logTail()));
    return last;
  }
}
