package org.dpstream.service.topology;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.dpstream.core.online.EstimatorFactory;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ModelRegistry;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.metrics.ModelMetrics;
import org.dpstream.service.noise.NoiseContext;
import org.dpstream.service.routing.Placement;
import org.dpstream.service.testing.TestNoiseKeys;

/** A TopologyTestDriver around the continual-release topology with two models. */
final class TopologyFixture implements AutoCloseable {

  static final ModelConfig LINEAR = new ModelConfig("linear", 3, "squared", "1.5", 2, 1, 1e-5, 64, 1, 2,
      null, null, "zcdp", 1);
  static final ModelConfig SPARSE_LOGISTIC = new ModelConfig("logistic", 6, "logistic", "1", 1, 1, 1e-5, 100, 1, 1,
      null, null, "zcdp", 2);
  static final ServiceConfig CONFIG =
      new ServiceConfig("dpstream-test", null, List.of(LINEAR, SPARSE_LOGISTIC), Map.of(), 0)
          // The test driver runs every topic as one partition.
          .withRoutingPartitions(1);

  /** The noise a model of this fixture draws: the key's, scoped by the model's placement. */
  static KeyedNoiseSource noiseOf(String modelId) {
    return Placement.of(modelId, CONFIG.routingPartitions()).noise(new KeyedNoiseSource(key()));
  }

  static NoiseKey key() {
    return TestNoiseKeys.arithmetic(3, 1);
  }

  final ModelRegistry registry;
  final Topics topics = Topics.defaults();
  final TopologyTestDriver driver;
  final TestInputTopic<byte[], byte[]> samples;
  final TestOutputTopic<String, ModelRelease> releases;
  final TestOutputTopic<String, RejectedRecord> rejected;

  TopologyFixture(Path stateDir, ModelMetrics metrics) {
    this(stateDir, metrics, CONFIG.routingPartitions(), EstimatorFactory.PRIVATE);
  }

  TopologyFixture(Path stateDir, ModelMetrics metrics, EstimatorFactory estimators) {
    this(stateDir, metrics, CONFIG.routingPartitions(), estimators);
  }

  /**
   * With {@code routingPartitions} > 1 the driver still delivers every routed record to partition 0, like
   * a routing topic written by something other than the service's router.
   */
  TopologyFixture(Path stateDir, ModelMetrics metrics, int routingPartitions) {
    this(stateDir, metrics, routingPartitions, EstimatorFactory.PRIVATE);
  }

  TopologyFixture(Path stateDir, ModelMetrics metrics, int routingPartitions, EstimatorFactory estimators) {
    this(stateDir, metrics, routingPartitions, estimators, CONFIG);
  }

  /** Around the models of {@code config} instead of the fixture's two. */
  TopologyFixture(Path stateDir, ModelMetrics metrics, int routingPartitions, EstimatorFactory estimators,
      ServiceConfig config) {
    this(stateDir, metrics, routingPartitions, estimators, config, NoiseContext.of(new KeyedNoiseSource(key())));
  }

  /** Around the models of {@code config}, with these noise keys and this record of what was published. */
  TopologyFixture(Path stateDir, ServiceConfig config, NoiseContext noise) {
    this(stateDir, ModelMetrics.NONE, config.routingPartitions(), EstimatorFactory.PRIVATE, config, noise);
  }

  private TopologyFixture(Path stateDir, ModelMetrics metrics, int routingPartitions, EstimatorFactory estimators,
      ServiceConfig config, NoiseContext noise) {
    this(stateDir, metrics, routingPartitions, estimators, config, noise, config.liveModelsPerTask());
  }

  /** Around the models of {@code config}, keeping at most {@code liveModels} of them loaded per task. */
  TopologyFixture(Path stateDir, ServiceConfig config, int liveModels) {
    this(stateDir, ModelMetrics.NONE, config.routingPartitions(), EstimatorFactory.PRIVATE, config,
        NoiseContext.of(new KeyedNoiseSource(key())), liveModels);
  }

  private TopologyFixture(Path stateDir, ModelMetrics metrics, int routingPartitions, EstimatorFactory estimators,
      ServiceConfig config, NoiseContext noise, int liveModels) {
    registry = config.registry();
    driver = TestDrivers.exactlyOnce(
        ContinualReleaseTopology.build(registry, topics, routingPartitions, noise, metrics, estimators, liveModels),
        "dpstream-test", stateDir);
    samples = TestDrivers.rawInput(driver, topics.samples().name());
    releases = TestDrivers.output(driver, topics.releases());
    rejected = TestDrivers.output(driver, topics.rejected());
  }

  @Override
  public void close() {
    driver.close();
  }
}
