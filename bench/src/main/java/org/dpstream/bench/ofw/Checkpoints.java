package org.dpstream.bench.ofw;

import java.util.TreeSet;

/** The steps t at which an online run's released parameters are scored. */
final class Checkpoints {

  private Checkpoints() {}

  /**
   * About {@code count} steps spaced evenly in log t over [1, horizon], rounded to integers and
   * de-duplicated (so fewer for small horizons); always includes 1 and {@code horizon}.
   */
  static int[] logSpaced(int horizon, int count) {
    if (horizon < 1 || count < 2) {
      throw new IllegalArgumentException("need horizon >= 1 and count >= 2: " + horizon + ", " + count);
    }
    TreeSet<Integer> steps = new TreeSet<>();
    double top = Math.log(horizon);
    for (int i = 0; i < count; i++) {
      long t = Math.round(Math.exp(top * i / (count - 1)));
      steps.add((int) Math.max(1, Math.min(horizon, t)));
    }
    steps.add(1);
    steps.add(horizon);
    return steps.stream().mapToInt(Integer::intValue).toArray();
  }
}
