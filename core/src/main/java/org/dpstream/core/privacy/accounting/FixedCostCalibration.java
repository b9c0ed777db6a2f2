package org.dpstream.core.privacy.accounting;

import java.util.Objects;

/**
 * The privacy map of a one-shot mechanism whose cost is a closed form of its parameters, not a function of a
 * step count: one release costing {@code cost} (e.g. objective perturbation, pure epsilon-DP: (epsilon, 0)).
 *
 * @param accountant the name recorded in the ledger
 * @param budget what the mechanism was calibrated for
 * @param cost the (epsilon, delta) of its one release, rounded up by the caller
 */
public record FixedCostCalibration(String accountant, PrivacyBudget budget, PrivacyBudget cost)
    implements PrivacyCalibration {

  public FixedCostCalibration {
    Objects.requireNonNull(accountant, "accountant");
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(cost, "cost");
  }

  /** One release. */
  @Override
  public long horizon() {
    return 1;
  }

  /** {@code cost} for step 1 (the only one). */
  @Override
  public PrivacyBudget spentAfter(long step) {
    if (step != 1) {
      throw new IllegalArgumentException("a one-shot mechanism has step 1 only, got " + step);
    }
    return cost;
  }
}
