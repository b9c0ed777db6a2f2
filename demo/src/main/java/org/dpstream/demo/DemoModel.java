package org.dpstream.demo;

import java.util.List;
import java.util.Map;
import org.dpstream.service.config.ModelConfig;

/**
 * One model of the demo: the linear regression of Han et al., section 5.2, in one lp geometry. The
 * privacy settings are the paper's (eps = 1, radius 2); delta is 1e-5.
 *
 * @param id the model id, the key of its samples and releases
 * @param p the lp geometry as written in a config file ({@code 1}, {@code 1.5}, {@code inf})
 * @param dimension d
 * @param maxContributions k of {@code privacyUnit: {by: user, maxContributions: k}}: each person's samples are
 *     bounded to k and the guarantee is per person; 0 for an event-level model
 */
record DemoModel(String id, String p, int dimension, int maxContributions) {

  static final double EPSILON = 1.0;
  static final double DELTA = 1e-5;
  static final double RADIUS = 2.0;
  /**
   * k of the person-level model: below the 5.5 samples the demo's persons send on average ({@link DemoPersons}),
   * so that the bound visibly rejects some.
   */
  static final int PERSON_MAX_CONTRIBUTIONS = 5;

  /** An event-level model. */
  DemoModel(String id, String p, int dimension) {
    this(id, p, dimension, 0);
  }

  /**
   * One model per estimator family: DP-TOFW in a smooth and in the l_inf geometry, DP-POFW for p = 1; and DP-TOFW
   * per person.
   */
  static List<DemoModel> defaults() {
    return List.of(
        new DemoModel("lr-p1.5", "1.5", 5),
        new DemoModel("lr-pinf", "inf", 10),
        new DemoModel("lr-p1", "1", 10),
        new DemoModel("lr-user", "1.5", 5, PERSON_MAX_CONTRIBUTIONS));
  }

  /** Whether the guarantee is per person. */
  boolean perPerson() {
    return maxContributions > 0;
  }

  /** A person-level model's guarantee, e.g. {@code (1, 1e-5)-DP per person, at most 5 samples each}. */
  String personGuarantee() {
    return "(" + PlainNumbers.of(EPSILON) + ", " + PlainNumbers.scientific(DELTA) + ")-DP per person, at most "
        + maxContributions + " samples each";
  }

  double exponent() {
    return p.equalsIgnoreCase("inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(p);
  }

  /**
   * The model as the service is configured with it.
   *
   * @param samples the number of samples the demo sends this model: the capacity of one tree epoch, or for a
   *     person-level model the number its bound lets through (public: the demo's persons are synthetic, {@link
   *     DemoPersons}), so that every model spends its whole budget over a full stream
   */
  ModelConfig toConfig(long samples) {
    long horizon = perPerson() ? samples - DemoPersons.overTheBound(samples, maxContributions) : samples;
    ModelConfig config = new ModelConfig(id, dimension, "squared", p, RADIUS, EPSILON, DELTA, horizon,
        SyntheticRegression.FEATURE_NORM_BOUND, SyntheticRegression.LABEL_BOUND, null, null, "auto", 1);
    return perPerson() ? config.withPrivacyUnit(Map.of("by", "user", "maxContributions", maxContributions)) : config;
  }

  /** For legends and summaries: {@code p=1.5, d=5}. */
  String geometry() {
    return "p=" + p + ", d=" + dimension;
  }
}
