package org.dpstream.bench.common;

import org.dpstream.service.config.BanditConfig;
import picocli.CommandLine.Option;

/**
 * {@code --d} and {@code --K} of the bandit service benchmarks ({@code bandit-e2e}, {@code bandit-learn}), and the
 * bandit they measure: DP-HDB on an identity link, the same spec in both. Use as a picocli {@code @Mixin}.
 */
public final class BenchBanditOptions {

  @Option(names = "--d", defaultValue = "50", description = "context dimension (default: ${DEFAULT-VALUE})")
  int dimension;

  @Option(names = "--K", defaultValue = "5", description = "arms (default: ${DEFAULT-VALUE})")
  int arms;

  public int dimension() {
    return dimension;
  }

  public int arms() {
    return arms;
  }

  /** The measured bandit: {@code horizon} rounds, rewards awaited {@code rewardTimeout}, expired decisions dropped. */
  public BanditConfig bandit(String id, long horizon, String rewardTimeout, int releaseEvery) {
    return new BanditConfig(id, dimension, arms, "identity", 1.0, "0.1", null, 1, 1e-5, horizon, 1.0, 1.2,
        rewardTimeout, "drop", null, releaseEvery);
  }
}
