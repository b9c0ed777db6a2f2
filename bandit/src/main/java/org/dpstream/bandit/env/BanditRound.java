package org.dpstream.bandit.env;

import java.util.Arrays;

/**
 * One round of a simulated bandit: the context, every arm's mean reward (used only to score) and every
 * arm's observed reward (the policy is shown only the chosen arm's).
 *
 * <p>The optimal arm is the lowest-index arm of maximal mean reward; the regret of choosing arm a is
 * max_i mean_i - mean_a (the pseudo regret of the paper's section 4.1). Arrays are copied in and out.
 */
public final class BanditRound {

  private final double[] context;
  private final double[] meanRewards;
  private final double[] observedRewards;
  private final int optimalArm;

  /**
   * @throws IllegalArgumentException if there are no arms, the reward arrays differ in length, or a
   *     value is not finite
   */
  public BanditRound(double[] context, double[] meanRewards, double[] observedRewards) {
    if (meanRewards.length == 0 || meanRewards.length != observedRewards.length) {
      throw new IllegalArgumentException(
          "need one mean and one observed reward per arm: " + meanRewards.length + " vs " + observedRewards.length);
    }
    requireFinite(context, "context");
    requireFinite(meanRewards, "mean rewards");
    requireFinite(observedRewards, "observed rewards");
    this.context = context.clone();
    this.meanRewards = meanRewards.clone();
    this.observedRewards = observedRewards.clone();
    int best = 0;
    for (int arm = 1; arm < meanRewards.length; arm++) {
      if (meanRewards[arm] > meanRewards[best]) {
        best = arm;
      }
    }
    this.optimalArm = best;
  }

  public int arms() {
    return meanRewards.length;
  }

  public double[] context() {
    return context.clone();
  }

  public double meanReward(int arm) {
    return meanRewards[checkArm(arm)];
  }

  /** The reward the policy observes when it chooses {@code arm}. */
  public double observedReward(int arm) {
    return observedRewards[checkArm(arm)];
  }

  public int optimalArm() {
    return optimalArm;
  }

  /** max_i mean_i - mean_arm, never negative. */
  public double regretOf(int arm) {
    return meanRewards[optimalArm] - meanRewards[checkArm(arm)];
  }

  /** Whether {@code arm} has the maximal mean reward (ties count as optimal). */
  public boolean isOptimal(int arm) {
    return regretOf(arm) == 0;
  }

  private int checkArm(int arm) {
    if (arm < 0 || arm >= meanRewards.length) {
      throw new IllegalArgumentException("arm " + arm + " not in [0, " + meanRewards.length + ")");
    }
    return arm;
  }

  private static void requireFinite(double[] values, String what) {
    for (double v : values) {
      if (!Double.isFinite(v)) {
        throw new IllegalArgumentException(what + " must be finite: " + Arrays.toString(values));
      }
    }
  }
}
