package org.dpstream.bench.ofw;

import org.dpstream.bench.common.Formats;

/** A (p, d, T, epsilon, delta) setting: one plot. */
record SettingKey(double p, int d, int horizon, double epsilon, double delta) {

  static SettingKey of(RunSpec run) {
    return new SettingKey(run.p(), run.d(), run.horizon(), run.epsilon(), run.delta());
  }

  String fileStem() {
    return "subopt_p" + Formats.parameter(p) + "_d" + d + "_T" + horizon + "_eps" + Formats.parameter(epsilon);
  }

  String title() {
    return "SubOpt vs t: p=" + Formats.parameter(p) + ", d=" + d + ", T=" + horizon + ", ("
        + Formats.parameter(epsilon) + ", " + Formats.parameter(delta) + ")-DP";
  }
}
