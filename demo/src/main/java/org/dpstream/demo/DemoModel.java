package org.dpstream.demo;

import java.util.List;
import org.dpstream.service.config.ModelConfig;

/**
 * One model of the demo: the linear regression of Han et al., section 5.2, in one lp geometry. The
 * privacy settings are the paper's (eps = 1, radius 2); delta is 1e-5.
 *
 * @param id the model id, the key of its samples and releases
 * @param p the lp geometry as written in a config file ({@code 1}, {@code 1.5}, {@code inf})
 * @param dimension d
 */
record DemoModel(String id, String p, int dimension) {

  static final double EPSILON = 1.0;
  static final double DELTA = 1e-5;
  static final double RADIUS = 2.0;

  /** One model per estimator family: DP-TOFW in a smooth and in the l_inf geometry, DP-POFW for p = 1. */
  static List<DemoModel> defaults() {
    return List.of(
        new DemoModel("lr-p1.5", "1.5", 5),
        new DemoModel("lr-pinf", "inf", 10),
        new DemoModel("lr-p1", "1", 10));
  }

  double exponent() {
    return p.equalsIgnoreCase("inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(p);
  }

  /**
   * The model as the service is configured with it.
   *
   * @param horizon capacity of one tree epoch: the number of samples the demo sends this model
   */
  ModelConfig toConfig(long horizon) {
    return new ModelConfig(id, dimension, "squared", p, RADIUS, EPSILON, DELTA, horizon,
        SyntheticRegression.FEATURE_NORM_BOUND, SyntheticRegression.LABEL_BOUND, null, null, "auto", 1);
  }

  /** For legends and summaries: {@code p=1.5, d=5}. */
  String geometry() {
    return "p=" + p + ", d=" + dimension;
  }
}
