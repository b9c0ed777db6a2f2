package org.dpstream.demo;

import java.util.ArrayList;
import java.util.List;

/**
 * The test risk of a model's releases against their step, on a geometric grid of steps (about 50 per
 * decade): the plot's x axis is logarithmic, so evaluating every release would add cost and nothing
 * visible. Not thread-safe; {@link ModelProgress} guards it.
 */
final class RiskCurve {

  /** A point of the curve. */
  record Point(long step, double risk) {}

  private static final double GRID_RATIO = 1.05;

  private final TestSet testSet;
  private final List<Point> points = new ArrayList<>();
  private long nextStep = 1;

  RiskCurve(TestSet testSet) {
    this.testSet = testSet;
  }

  /** Evaluates the release if its step is on the grid. */
  void offer(long step, double[] theta) {
    if (step >= nextStep) {
      add(step, theta);
      nextStep = Math.max(step + 1, (long) Math.ceil(step * GRID_RATIO));
    }
  }

  /** Evaluates the release unconditionally (the last one) and returns its risk. */
  double close(long step, double[] theta) {
    if (!points.isEmpty() && points.get(points.size() - 1).step() == step) {
      return points.get(points.size() - 1).risk();
    }
    return add(step, theta);
  }

  private double add(long step, double[] theta) {
    double risk = testSet.risk(theta);
    points.add(new Point(step, risk));
    return risk;
  }

  List<Point> points() {
    return List.copyOf(points);
  }
}
