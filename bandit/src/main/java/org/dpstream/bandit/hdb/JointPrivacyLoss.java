package org.dpstream.bandit.hdb;

import java.util.Objects;
import org.dpstream.core.privacy.accounting.PrivacyBudget;

/**
 * The (epsilon, delta) DP-HDB has spent so far with respect to one user, under the joint-DP
 * accounting of {@link JointDpCalibration}, and the budget it must stay within.
 *
 * @param epsilon spent, &gt;= 0 (0 before the first round)
 * @param delta spent, &gt;= 0
 * @param budget the bandit's total budget
 */
public record JointPrivacyLoss(double epsilon, double delta, PrivacyBudget budget) {

  public JointPrivacyLoss {
    Objects.requireNonNull(budget, "budget");
    if (!(epsilon >= 0) || !(delta >= 0)) {
      throw new IllegalArgumentException("spent must be non-negative: " + epsilon + ", " + delta);
    }
  }

  /** Whether the spend fits the budget, compared exactly (the parts are already rounded up). */
  public boolean isWithinBudget() {
    return epsilon <= budget.epsilon() && delta <= budget.delta();
  }
}
