package org.dpstream.app.decide;

import org.dpstream.app.config.BanditRegistry;
import org.dpstream.bandit.hdb.DpHdbDecisionRule;
import org.dpstream.bandit.release.DecisionRule;

/**
 * The decision rule of a configured bandit: the same implementation its learning policy decides with,
 * keyed by the policy's algorithm. A new policy plugs in here with its own {@link DecisionRule}.
 */
public final class DecisionRules {

  private DecisionRules() {}

  public static DecisionRule of(BanditRegistry.Entry bandit) {
    // Every configured bandit is DP-HDB today; a policy field of the entry selects the rule once there are more.
    return new DpHdbDecisionRule(bandit.spec());
  }
}
