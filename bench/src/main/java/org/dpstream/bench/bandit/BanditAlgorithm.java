package org.dpstream.bench.bandit;

import java.util.Locale;

/** The policies the {@code bandit} command compares, by their command-line names. */
enum BanditAlgorithm {
  DPHDB("dphdb"),
  DPUCB("dpucb"),
  DPLINEAR("dplinear"),
  /**
   * The service's default for the run's (d, K, T, epsilon), {@code DefaultPolicy}: runs exactly as the policy it
   * names (same noise keys), so its row repeats that policy's.
   */
  DEFAULT("default"),
  /** Uniformly random arms: the reference of the summary's "vs random". */
  RANDOM("random"),
  /** Non-private greedy ridge regression: the floor privacy is measured against. */
  GREEDY("greedy");

  private final String cliName;

  BanditAlgorithm(String cliName) {
    this.cliName = cliName;
  }

  String cliName() {
    return cliName;
  }

  /** The algorithm the service's default rule names for the run's spec ({@code DefaultPolicy}). */
  static BanditAlgorithm defaultFor(int d, int arms, long horizon, double epsilon) {
    String name = org.dpstream.bandit.DefaultPolicy.nameFor(d, arms, horizon, epsilon);
    return name.equals(org.dpstream.bandit.linear.DpLinearPolicy.NAME) ? DPLINEAR : DPHDB;
  }

  static BanditAlgorithm parse(String name) {
    String wanted = name.strip().toLowerCase(Locale.ROOT).replace("-", "");
    for (BanditAlgorithm algorithm : values()) {
      if (algorithm.cliName.equals(wanted)) {
        return algorithm;
      }
    }
    throw new IllegalArgumentException("unknown algorithm '" + name
        + "'; expected default, dphdb, dpucb, dplinear, random or greedy");
  }
}
