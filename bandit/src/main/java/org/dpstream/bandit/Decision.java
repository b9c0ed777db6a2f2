package org.dpstream.bandit;

/**
 * The arm chosen for one context.
 *
 * @param arm in [0, K)
 * @param phase forced-sampling warm-up or the greedy phase (DP-HDB); policies without phases say GREEDY
 * @param round the number of rounds learned when the decision was made
 */
public record Decision(int arm, Phase phase, long round) {

  /** The phase of DP-HDB (Algorithm 3) a decision was made in. */
  public enum Phase {
    WARM_UP,
    GREEDY
  }

  public Decision {
    if (arm < 0) {
      throw new IllegalArgumentException("arm must be non-negative: " + arm);
    }
    java.util.Objects.requireNonNull(phase, "phase");
  }
}
