package org.dpstream.service.bandit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.metrics.MicrometerBanditMetrics;

/** The bandit topology with deciders on a test driver: {@link #requests} is the decision log. */
final class DecisionLogFixture extends BanditDriver {

  static final String BANDIT = BanditTopologyTest.DROP.id();

  final SimpleMeterRegistry meters;
  final BanditRegistry.Entry entry = BanditTopologyTest.CONFIG.banditRegistry().find(BANDIT).orElseThrow();

  DecisionLogFixture(Path stateDir) {
    this(stateDir, new SimpleMeterRegistry());
  }

  private DecisionLogFixture(Path stateDir, SimpleMeterRegistry meters) {
    super(stateDir, "decision-log-test", new MicrometerBanditMetrics(meters),
        BanditTopologyTest.CONFIG.routingPartitions(), BanditTopology.Deciding.BY_DECIDERS);
    this.meters = meters;
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
}
