package org.dpstream.core.privacy.accounting;

/**
 * A calibrated mechanism together with its privacy map (the OpenDP shape: a mechanism is a function plus a
 * map from its parameters to its privacy cost): the noise scales were derived from the budget (or given), and
 * {@link #spentAfter(long)} says what the releases of steps 1..t cost. Every private algorithm goes through
 * one: the online estimators and bandits reserve {@code spentAfter(t)} in their {@link PrivacyLedger} before
 * each release; batch algorithms (horizon = their number of noisy steps, one model released at the end, or
 * one step for a one-shot mechanism) reserve {@code spentAfter(horizon())} before they draw any noise
 * ({@link PrivacyLedger#forRun}).
 *
 * <p>Contract for implementations: immutable after validated construction; {@code spentAfter} is
 * non-decreasing in t and rounded up. A calibration derived from its budget has {@code
 * spentAfter(horizon())} within {@link #budget()} for the doubles computed, so its ledger never refuses a
 * release inside the horizon; one whose noise was given rather than derived (an explicit sigma, a paper's
 * formula outside its premises) may exceed it, and the ledger then refuses the run.
 */
public interface PrivacyCalibration {

  /** Name recorded in the ledger and in every release, e.g. {@code zcdp-cks20} or {@code paper-eq-3.2}. */
  String accountant();

  /** The (epsilon, delta) the mechanism was calibrated for. */
  PrivacyBudget budget();

  /** Horizon n: the number of steps of one epoch (one tree, one run of Algorithm 2, one batch run). */
  long horizon();

  /** The cumulative (epsilon, delta) of the releases of steps 1..t (t &gt;= 1) of one epoch. */
  PrivacyBudget spentAfter(long step);
}
