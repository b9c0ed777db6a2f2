package org.dpstream.demo;

import java.nio.file.Path;
import java.time.Duration;
import org.dpstream.service.serde.OutputFormat;

/**
 * The settings of one demo run.
 *
 * @param samplesPerModel samples sent to each model (also its tree horizon)
 * @param duration bound on the streaming phase; the stream stops early if it is reached
 * @param samplesPerSecond total send rate; 0 for as fast as the service takes them
 * @param keepRunning keep broker, service and /metrics up after the summary, until Ctrl-C
 * @param metricsPort port of /metrics; 0 picks a free one
 * @param kafkaPort port of the embedded broker's client listener; 0 picks a free one
 * @param outDirectory where the PNG goes
 * @param seed seed of the synthetic data (simulation randomness, not privacy noise)
 * @param testSetSize held-out points per model for the test risk
 * @param outputFormat how the service writes releases, decisions and rejections
 */
record DemoOptions(long samplesPerModel, Duration duration, double samplesPerSecond, boolean keepRunning,
    int metricsPort, int kafkaPort, Path outDirectory, long seed, int testSetSize, OutputFormat outputFormat) {

  DemoOptions {
    if (samplesPerModel < 2) {
      // The models' horizon is their number of samples, and a tree needs at least two leaves.
      throw new IllegalArgumentException("--samples must be at least 2, got " + samplesPerModel);
    }
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("--duration must be positive, got " + duration);
    }
    if (samplesPerSecond < 0 || !Double.isFinite(samplesPerSecond)) {
      throw new IllegalArgumentException("--rate must be 0 (as fast as possible) or positive, got " + samplesPerSecond);
    }
    if (metricsPort < 0 || metricsPort > 65535) {
      throw new IllegalArgumentException("--metrics-port must be in [0, 65535], got " + metricsPort);
    }
    if (kafkaPort < 0 || kafkaPort > 65535) {
      throw new IllegalArgumentException("--kafka-port must be in [0, 65535], got " + kafkaPort);
    }
    if (testSetSize < 1) {
      throw new IllegalArgumentException("--test-size must be at least 1, got " + testSetSize);
    }
  }
}
