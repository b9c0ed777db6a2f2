package org.dpstream.bandit.env;

/**
 * What is known about an environment before any data is seen, for calibrating clipping and confidence
 * widths. These are properties of the environment's definition, never estimated from its rounds, so
 * using them costs no privacy.
 *
 * @param contextL2 an upper bound on ||x||_2 of every context
 * @param reward an upper bound on |r| of the observed rewards that matter; larger rewards may occur
 *     (Gaussian noise) and are clipped by private policies
 * @param rewardNoiseScale R: the reward noise is conditionally R-sub-Gaussian
 * @param rewardMidpoint m, the midpoint of the reward range [m - h, m + h], h = reward - |m| (one end of the range
 *     is at +-reward): 0 for rewards symmetric about zero, 1/2 for rewards in [0, 1]
 * @param parameterL2 an upper bound on ||theta*_a||_2 of every arm's linear parameter (1 when the
 *     model is only a useful approximation, as on classification data)
 */
public record EnvironmentBounds(double contextL2, double reward, double rewardNoiseScale, double parameterL2,
    double rewardMidpoint) {

  /** Bounds of rewards symmetric about zero (midpoint 0). */
  public EnvironmentBounds(double contextL2, double reward, double rewardNoiseScale, double parameterL2) {
    this(contextL2, reward, rewardNoiseScale, parameterL2, 0);
  }

  public EnvironmentBounds {
    if (!(Math.abs(rewardMidpoint) < reward)) {
      throw new IllegalArgumentException("rewardMidpoint must be finite with |m| < reward, got " + rewardMidpoint);
    }
    requirePositiveFinite(contextL2, "contextL2");
    requirePositiveFinite(reward, "reward");
    requirePositiveFinite(rewardNoiseScale, "rewardNoiseScale");
    requirePositiveFinite(parameterL2, "parameterL2");
  }

  /** h = reward - |m|: the rewards that matter lie in [m - h, m + h]. */
  public double rewardHalfRange() {
    return reward - Math.abs(rewardMidpoint);
  }

  private static void requirePositiveFinite(double value, String name) {
    if (!(value > 0) || !Double.isFinite(value)) {
      throw new IllegalArgumentException(name + " must be positive and finite, got " + value);
    }
  }
}
