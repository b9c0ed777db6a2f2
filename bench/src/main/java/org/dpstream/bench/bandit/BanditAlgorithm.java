package org.dpstream.bench.bandit;

import java.util.Locale;

/** The policies the {@code bandit} command compares, by their command-line names. */
enum BanditAlgorithm {
  DPHDB("dphdb"),
  DPUCB("dpucb"),
  DPLINEAR("dplinear"),
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

  static BanditAlgorithm parse(String name) {
    String wanted = name.strip().toLowerCase(Locale.ROOT).replace("-", "");
    for (BanditAlgorithm algorithm : values()) {
      if (algorithm.cliName.equals(wanted)) {
        return algorithm;
      }
    }
    throw new IllegalArgumentException("unknown algorithm '" + name + "'; expected dphdb, dpucb, dplinear, random or greedy");
  }
}
