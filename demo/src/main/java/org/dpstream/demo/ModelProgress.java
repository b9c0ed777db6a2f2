package org.dpstream.demo;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.dpstream.schemas.ModelRelease;

/**
 * What the demo has seen of one model on the output topics: its releases (latest one, count, test-risk
 * curve) and its rejected inputs by reason. Written by the output watcher's thread, read by the
 * progress display and the summary, hence synchronised.
 */
final class ModelProgress {

  /** A consistent view for display. */
  record Snapshot(long step, double epsilonSpent, double epsilonBudget, long releases) {}

  private final DemoModel model;
  private final TestSet testSet;
  private final RiskCurve curve;
  private final Map<String, Long> rejectedByReason = new TreeMap<>();
  private ModelRelease latest;
  private long releases;

  ModelProgress(DemoModel model, TestSet testSet) {
    this.model = model;
    this.testSet = testSet;
    this.curve = new RiskCurve(testSet);
  }

  DemoModel model() {
    return model;
  }

  TestSet testSet() {
    return testSet;
  }

  synchronized void released(ModelRelease release) {
    releases++;
    // Releases of one model share a key, hence a partition: they arrive in step order.
    latest = release;
    curve.offer(release.getStep(), parameters(release));
  }

  synchronized void rejected(String reason) {
    rejectedByReason.merge(reason, 1L, Long::sum);
  }

  synchronized Snapshot snapshot() {
    return latest == null
        ? new Snapshot(0, 0, DemoModel.EPSILON, 0)
        : new Snapshot(latest.getStep(), latest.getLedger().getEpsilonSpent(), latest.getLedger().getEpsilon(), releases);
  }

  synchronized long rejected() {
    return rejectedByReason.values().stream().mapToLong(Long::longValue).sum();
  }

  /** The reason of a sample whose person has sent the model's maxContributions samples already. */
  static final String CONTRIBUTION_LIMIT = "CONTRIBUTION_LIMIT";

  /** Valid samples rejected because their person had reached the bound. */
  synchronized long overTheBound() {
    return rejectedByReason.getOrDefault(CONTRIBUTION_LIMIT, 0L);
  }

  synchronized Map<String, Long> rejectedByReason() {
    return Map.copyOf(rejectedByReason);
  }

  /** The latest release, or null if none has arrived. */
  synchronized ModelRelease latest() {
    return latest;
  }

  /** The risk curve, closed with the latest release so that it ends at the final step. */
  synchronized List<RiskCurve.Point> finalCurve() {
    if (latest != null) {
      curve.close(latest.getStep(), parameters(latest));
    }
    return curve.points();
  }

  static double[] parameters(ModelRelease release) {
    List<Double> values = release.getParameters();
    double[] theta = new double[values.size()];
    for (int i = 0; i < theta.length; i++) {
      theta[i] = values.get(i);
    }
    return theta;
  }
}
