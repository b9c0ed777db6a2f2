package org.dpstream.service.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import org.dpstream.service.health.HealthCheck;

/**
 * Serves the Prometheus exposition of a registry at {@code /metrics} and, once {@link #serveHealth} is
 * given the service's {@link HealthCheck}, liveness at {@code /health} and readiness at {@code /ready} (200
 * or 503, plain-text reasons). The JDK's HTTP server is enough for a scrape endpoint and two probes; a web
 * framework would add nothing but weight.
 */
public final class MetricsServer implements AutoCloseable {

  private static final String TEXT = "text/plain; charset=utf-8";

  private final HttpServer server;

  private MetricsServer(HttpServer server) {
    this.server = server;
  }

  /** Starts serving /metrics on {@code port} (0 picks a free one) on all interfaces, as a scrape target must. */
  public static MetricsServer start(PrometheusMeterRegistry registry, int port) throws IOException {
    return start(registry, null, port);
  }

  /** Starts serving /metrics on {@code address} ({@code metricsAddress}; null: every interface) and {@code port}. */
  public static MetricsServer start(PrometheusMeterRegistry registry, String address, int port) throws IOException {
    HttpServer server = HttpServer.create(
        address == null ? new InetSocketAddress(port) : new InetSocketAddress(address, port), 0);
    server.createContext("/metrics", exchange ->
        respond(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape()));
    server.start();
    return new MetricsServer(server);
  }

  /** Serves /health and /ready from {@code health} from now on (the service starts after its metrics). */
  public MetricsServer serveHealth(HealthCheck health) {
    server.createContext("/health", exchange -> respond(exchange, health.liveness(), "alive", "dead"));
    server.createContext("/ready", exchange -> respond(exchange, health.readiness(), "ready", "not ready"));
    return this;
  }

  private static void respond(HttpExchange exchange, HealthCheck.Report report, String okWord, String failedWord)
      throws IOException {
    respond(exchange, report.ok() ? 200 : 503, TEXT, report.body(okWord, failedWord));
  }

  private static void respond(HttpExchange exchange, int status, String contentType, String text) throws IOException {
    byte[] body = text.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
