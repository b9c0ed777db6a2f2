package org.dpstream.core.privacy.accounting;

/**
 * A calibrated continual-release mechanism together with its privacy map (OpenDP style): the noise scales
 * were derived from the budget, and {@link #spentAfter(long)} says what the releases of steps 1..t cost.
 *
 * <p>Contract for implementations: immutable after validated construction; {@code spentAfter} is
 * non-decreasing in t, rounded up, and {@code spentAfter(horizon())} is within {@link #budget()} for the
 * doubles computed (so a {@link PrivacyLedger} fed with it never refuses a release inside the horizon).
 */
public interface PrivacyCalibration {

  /** Name recorded in the ledger and in every release, e.g. {@code zcdp-cks20} or {@code paper-eq-3.2}. */
  String accountant();

  /** The (epsilon, delta) the mechanism was calibrated for. */
  PrivacyBudget budget();

  /** Horizon n: the number of steps of one epoch (one tree, or one run of Algorithm 2). */
  long horizon();

  /** The cumulative (epsilon, delta) of the releases of steps 1..t (t &gt;= 1) of one epoch. */
  PrivacyBudget spentAfter(long step);
}
