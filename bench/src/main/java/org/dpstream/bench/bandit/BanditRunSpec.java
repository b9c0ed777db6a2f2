package org.dpstream.bench.bandit;

/**
 * One run of the {@code bandit} command: one algorithm on one environment and seed. The seed determines
 * the environment (contexts, theta*, reward noise, image draws) and the noise key.
 */
record BanditRunSpec(BanditAlgorithm algorithm, String env, int d, int arms, int horizon, double epsilon,
    double delta, long seed) {

  /** Names the run's noise streams; distinct for every run. */
  String runId() {
    return "bandit/" + algorithm.cliName() + "/" + env + "/d" + d + "/K" + arms + "/T" + horizon + "/eps" + epsilon
        + "/seed" + seed;
  }

  /** The same run under another algorithm (the default runs as the policy it names). */
  BanditRunSpec as(BanditAlgorithm other) {
    return new BanditRunSpec(other, env, d, arms, horizon, epsilon, delta, seed);
  }

  String label() {
    return algorithm.cliName() + " " + env + " d=" + d + " K=" + arms + " T=" + horizon + " eps=" + epsilon
        + " seed=" + seed;
  }
}
