package org.dpstream.app.bandit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.dpstream.app.config.BanditRegistry;
import org.dpstream.app.kafka.Topics;
import org.dpstream.app.metrics.MicrometerBanditMetrics;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;

/** The bandit topology with deciders on a test driver, and its inputs and outputs. */
final class DecisionLogFixture implements AutoCloseable {

  static final String BANDIT = BanditTopologyTest.DROP.id();

  final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  final BanditRegistry.Entry entry = BanditTopologyTest.CONFIG.banditRegistry().find(BANDIT).orElseThrow();
  final BanditDriver bandit;
  final Topics topics;
  final TestInputTopic<byte[], byte[]> decided;
  final TestInputTopic<byte[], byte[]> rewards;
  final TestOutputTopic<String, DecisionResponse> decisions;
  final TestOutputTopic<String, ModelRelease> releases;
  final TestOutputTopic<String, RejectedRecord> rejected;

  DecisionLogFixture(Path stateDir) {
    bandit = new BanditDriver(stateDir, "decision-log-test", new MicrometerBanditMetrics(meters),
        BanditTopologyTest.CONFIG.routingPartitions(), BanditTopology.Deciding.BY_DECIDERS);
    topics = bandit.topics;
    decided = bandit.requests;
    rewards = bandit.rewards;
    decisions = bandit.decisions;
    releases = bandit.releases;
    rejected = bandit.rejected;
  }

  List<String> rejectionReasons() {
    return rejected.readValuesToList().stream().map(RejectedRecord::getReason).toList();
  }

  double held() {
    return count("dpstream.bandit.rewards.held");
  }

  /** The bandit's counter {@code name}, summed over its other tags (0 if nothing counted yet). */
  double count(String name) {
    return meters.find(name).tag("bandit", BANDIT).counters().stream().mapToDouble(Counter::count).sum();
  }

  @Override
  public void close() {
    bandit.close();
  }
}
