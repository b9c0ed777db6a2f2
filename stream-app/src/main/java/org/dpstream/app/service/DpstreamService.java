package org.dpstream.app.service;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.dpstream.app.config.ServiceConfig;
import org.dpstream.app.kafka.Topics;
import org.dpstream.app.metrics.MicrometerModelMetrics;
import org.dpstream.app.topology.ContinualReleaseTopology;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running service: the continual-release topology on Kafka Streams, with its metrics bound to a
 * registry. Bad input never reaches this level (the topology rejects it); an unexpected exception
 * replaces the stream thread, which resumes from the last committed transaction.
 */
public final class DpstreamService implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(DpstreamService.class);

  private final KafkaStreams streams;
  private final KafkaStreamsMetrics streamsMetrics;

  private DpstreamService(KafkaStreams streams, KafkaStreamsMetrics streamsMetrics) {
    this.streams = streams;
    this.streamsMetrics = streamsMetrics;
  }

  /** Builds and starts the service. The key is used to derive noise and is not kept in any other form. */
  public static DpstreamService start(ServiceConfig config, NoiseKey key, MeterRegistry registry) {
    Properties properties = StreamsSettings.of(config);
    if (!StreamsSettings.isExactlyOnce(properties)) {
      LOG.warn("processing.guarantee is not exactly_once_v2: after a crash a sample can be counted twice"
          + " in a model's state; releases stay private (noise is keyed) but the model can drift");
    }
    Topics topics = new Topics(config.topics());
    KafkaStreams streams = new KafkaStreams(
        ContinualReleaseTopology.build(config.registry(), topics, new KeyedNoiseSource(key), new MicrometerModelMetrics(registry)),
        properties);
    streams.setUncaughtExceptionHandler(exception -> {
      LOG.error("stream thread failed; replacing it", exception);
      return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
    });
    KafkaStreamsMetrics streamsMetrics = new KafkaStreamsMetrics(streams);
    streamsMetrics.bindTo(registry);
    streams.start();
    return new DpstreamService(streams, streamsMetrics);
  }

  public KafkaStreams.State state() {
    return streams.state();
  }

  /** Waits until the service is running (all tasks assigned and restored) or the timeout passes. */
  public boolean awaitRunning(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (streams.state() != KafkaStreams.State.RUNNING) {
      if (System.nanoTime() > deadline || streams.state() == KafkaStreams.State.ERROR
          || streams.state() == KafkaStreams.State.NOT_RUNNING) {
        return false;
      }
      Thread.sleep(50);
    }
    return true;
  }

  @Override
  public void close() {
    streams.close(Duration.ofSeconds(30));
    streamsMetrics.close();
  }
}
