package org.dpstream.bench.bandit;

import java.util.Locale;

/** The policies the {@code bandit} command compares, by their command-line names. */
enum BanditAlgorithm {
  DPHDB("dphdb"),
  DPUCB("dpucb");

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
    throw new IllegalArgumentException("unknown algorithm '" + name + "'; expected dphdb or dpucb");
  }
}
