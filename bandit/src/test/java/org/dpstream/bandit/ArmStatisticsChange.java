package org.dpstream.bandit;

import java.util.List;
import java.util.function.IntFunction;
import org.dpstream.core.privacy.recorder.Measurement;
import org.dpstream.core.privacy.recorder.SensitivityRecorder;

/**
 * What the bandits' recorders measure at a release: the l2 change of every arm's released statistics concatenated,
 * between two runs under the same noise, against the leaf sensitivity the arms' mechanisms are calibrated for. The
 * rounding bound: each release is an exact sum plus the same noise, rounded once or twice on each side.
 */
public final class ArmStatisticsChange {

  private ArmStatisticsChange() {}

  /** Every arm's released statistics now, arm after arm: what the recorders compare. */
  public static double[][] released(int arms, IntFunction<double[]> statistics) {
    double[][] all = new double[arms][];
    for (int arm = 0; arm < arms; arm++) {
      all[arm] = statistics.apply(arm);
    }
    return all;
  }

  /** The measurement of {@code what} (e.g. "at the release after round 5") against {@code declared}. */
  public static SensitivityRecorder.Sensitivity<double[][]> against(String what, double declared) {
    return (double[][] a, double[][] b) -> {
      double squared = 0;
      double rounding = 0;
      int length = 0;
      for (int arm = 0; arm < a.length; arm++) {
        for (int i = 0; i < a[arm].length; i++) {
          double change = a[arm][i] - b[arm][i];
          squared += change * change;
          rounding += 2 * (Math.ulp(a[arm][i]) + Math.ulp(b[arm][i]));
          length++;
        }
      }
      double measured = Math.sqrt(squared);
      return List.of(new Measurement("all arms' statistics " + what + ", l2", measured, declared,
          rounding + SensitivityRecorder.l2DistanceRounding(length, measured)));
    };
  }
}
