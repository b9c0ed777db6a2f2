package org.dpstream.service.it;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.streams.KafkaStreams;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.streams.DpstreamService;

/** The service in the test's JVM, with a registry the test can read; for tests that never crash it. */
final class InProcessService implements AutoCloseable {

  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  final DpstreamService service;

  InProcessService(ServiceConfig config) {
    service = DpstreamService.start(config, ItModels.noiseKey(), registry);
  }

  /** False once the service has failed or stopped: then no further output can come. */
  boolean isUp() {
    KafkaStreams.State state = service.state();
    return state != KafkaStreams.State.ERROR && state != KafkaStreams.State.PENDING_ERROR
        && state != KafkaStreams.State.NOT_RUNNING && state != KafkaStreams.State.PENDING_SHUTDOWN;
  }

  String describe() {
    return "service state " + service.state();
  }

  double counterSum(String name) {
    return registry.find(name).counters().stream().mapToDouble(c -> c.count()).sum();
  }

  @Override
  public void close() {
    service.close();
  }
}
