package org.dpstream.core.privacy.accounting;

/**
 * Thrown when a release would take a model's cumulative privacy loss past its budget. The release must not
 * happen; the ledger that threw is unchanged.
 */
public final class PrivacyBudgetExceededException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final PrivacyBudget budget;
  private final PrivacyBudget requested;

  public PrivacyBudgetExceededException(PrivacyBudget budget, PrivacyBudget requested, String context) {
    super("privacy budget exceeded: a release would bring the cumulative loss to " + requested
        + ", over the budget " + budget + " (" + context + ")");
    this.budget = budget;
    this.requested = requested;
  }

  public PrivacyBudget budget() {
    return budget;
  }

  /** The cumulative loss the refused release would have reached. */
  public PrivacyBudget requested() {
    return requested;
  }
}
