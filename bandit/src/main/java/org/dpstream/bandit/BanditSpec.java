package org.dpstream.bandit;

import java.util.ArrayList;
import java.util.List;

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
   * Every id this bandit derives from its own, under which something of it is published or draws noise: its arms'
   * release ids ({@link #armModelId}) and whatever the policy adds. No model or other bandit may be named alike.
   */
  default List<String> derivedIds() {
    List<String> ids = new ArrayList<>();
    for (int arm = 0; arm < arms(); arm++) {
      ids.add(armModelId(arm));
    }
    return ids;
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
