package org.dpstream.app.metrics;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * Serves the Prometheus exposition of a registry at {@code /metrics}. The JDK's HTTP server is enough
 * for one scrape endpoint; a web framework would add nothing but weight.
 */
public final class MetricsServer implements AutoCloseable {

  private final HttpServer server;

  private MetricsServer(HttpServer server) {
    this.server = server;
  }

  /** Starts serving on {@code port} (0 picks a free one) on all interfaces, as a scrape target must. */
  public static MetricsServer start(PrometheusMeterRegistry registry, int port) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
    server.createContext("/metrics", exchange -> {
      byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
    return new MetricsServer(server);
  }

  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
