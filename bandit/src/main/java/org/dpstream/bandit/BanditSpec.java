package org.dpstream.bandit;

/** What a service needs to know of any bandit's spec, whatever its policy. */
public interface BanditSpec {

  String banditId();

  int dimension();

  int arms();

  /** The model id arm i's releases are published under, {@code banditId/arm-i}. */
  default String armModelId(int arm) {
    if (arm < 0 || arm >= arms()) {
      throw new IllegalArgumentException("arm must be in [0, " + arms() + "): " + arm);
    }
    return banditId() + "/arm-" + arm;
  }

  /**
   * Checks a reward before it is learnt.
   *
   * @throws IllegalArgumentException if the policy does not admit it (not finite, or outside the link's range)
   */
  void requireReward(double reward);

  /** The policy's name in config and releases: {@code dp-hdb} or {@code dp-linear}. */
  String policyName();
}
