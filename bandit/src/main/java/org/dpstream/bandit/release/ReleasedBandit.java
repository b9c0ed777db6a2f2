package org.dpstream.bandit.release;

import java.util.Map;
import java.util.Objects;

/**
 * Everything a decider may know about one bandit: the parameters its policy released at one step, and
 * nothing else. Built only from records read from the release topic, so a decision made from it is
 * post-processing of the DP output (see docs/bandit-privacy.md, "Deciding from the releases").
 *
 * @param banditId the bandit
 * @param algorithm the algorithm name of the releases (its family, e.g. {@code dp-hdb}), which picks the
 *     {@link DecisionRule}
 * @param step the rounds the bandit had learnt when these parameters were released (the same for every arm)
 * @param arms arm i's released parameter vector, for every arm
 * @param extras further released vectors the rule needs, by name (DP-HDB: its frozen forced-sampling
 *     estimators); never anything unreleased
 */
public record ReleasedBandit(String banditId, String algorithm, long step, double[][] arms,
    Map<String, double[][]> extras) {

  public ReleasedBandit {
    Objects.requireNonNull(banditId, "banditId");
    Objects.requireNonNull(algorithm, "algorithm");
    Objects.requireNonNull(arms, "arms");
    extras = Map.copyOf(extras);
    if (step < 0) {
      throw new IllegalArgumentException("step must be non-negative: " + step);
    }
  }

  /** A named extra, or null if this release has none of that name. */
  public double[][] extra(String name) {
    return extras.get(name);
  }
}
