package org.dpstream.app;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.dpstream.app.config.ConfigLoader;
import org.dpstream.app.config.ServiceConfig;
import org.dpstream.app.metrics.MetricsServer;
import org.dpstream.app.service.DpstreamService;
import org.dpstream.core.privacy.random.NoiseKey;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dpstream run --config FILE}: the service against an existing Kafka cluster. */
@Command(
    name = "run",
    description = {
      "Run the service against an existing Kafka cluster.",
      "The noise key is read from DPSTREAM_NOISE_KEY or the file named by DPSTREAM_NOISE_KEY_FILE."
    })
final class RunCommand implements Callable<Integer> {

  @Option(names = "--config", required = true, description = "YAML config file (models, topics, kafka settings)")
  Path config;

  @Override
  public Integer call() throws Exception {
    ServiceConfig serviceConfig = ConfigLoader.load(config);
    NoiseKey key = NoiseKey.fromEnvironment(System.getenv());
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    MetricsServer metrics = serviceConfig.metricsPort() > 0 ? MetricsServer.start(registry, serviceConfig.metricsPort()) : null;
    DpstreamService service = DpstreamService.start(serviceConfig, key, registry);
    System.err.printf("dpstream running: %d model(s), %d bandit(s), application %s%s%n",
        serviceConfig.models().size(), serviceConfig.bandits().size(), serviceConfig.applicationId(), metrics == null ? "" : ", metrics at http://localhost:" + metrics.port() + "/metrics");
    // The JVM waits for shutdown hooks, so closing here (not in the main thread) is what makes SIGTERM and
    // Ctrl-C a clean stop: the open transaction is committed or aborted, the state checkpointed and the
    // consumer group left, instead of every stop looking like a crash.
    CountDownLatch closed = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.err.println("dpstream stopping");
      service.close();
      System.err.println("dpstream stopped: " + service.state());
      if (metrics != null) {
        metrics.close();
      }
      closed.countDown();
    }, "dpstream-shutdown"));
    closed.await();
    return 0;
  }
}
