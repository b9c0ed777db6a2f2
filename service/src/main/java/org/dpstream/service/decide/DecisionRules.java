package org.dpstream.service.decide;

import org.dpstream.bandit.hdb.DpHdbDecisionRule;
import org.dpstream.bandit.linear.DpLinearDecisionRule;
import org.dpstream.bandit.linear.DpLinearSpec;
import org.dpstream.bandit.release.DecisionRule;
import org.dpstream.service.config.BanditRegistry;

/**
 * The decision rule of a configured bandit: the same implementation its learning policy decides with,
 * keyed by the policy's algorithm. A new policy plugs in here with its own {@link DecisionRule}.
 */
public final class DecisionRules {

  private DecisionRules() {}

  public static DecisionRule of(BanditRegistry.Entry bandit) {
    if (bandit.spec() instanceof DpLinearSpec linear) {
      return new DpLinearDecisionRule(linear);
    }
    return new DpHdbDecisionRule(bandit.hdb());
  }
}
