package org.dpstream.service.bandit;

/**
 * Why a well-formed context or reward cannot be used by its bandit. Like the decoder's
 * {@link org.dpstream.service.serde.RejectReason}, these codes go to dp.rejected and to the metrics' reason
 * tag: renaming one is a breaking change.
 */
public enum BanditRejection {
  /** No key: the key names the bandit. */
  MISSING_KEY,
  /** The key names no configured bandit. */
  UNKNOWN_BANDIT,
  /** An empty request id. */
  MISSING_REQUEST_ID,
  /** A record naming an empty caller, or one with NUL (a record that names none is in the default scope). */
  INVALID_CALLER,
  /** A context whose length is not the bandit's dimension. */
  WRONG_DIMENSION,
  /** A context whose request id this bandit has already decided (pending or recently completed). */
  DUPLICATE_REQUEST,
  /**
   * A decision (or, deciding in the topology, a context) whose reward deadline ({@code timestamp + rewardTimeout})
   * the bandit's stream time has already passed: no reward could join it, and its request may have been learnt
   * before (a replay of old contexts), so it is not learnt.
   */
  STALE_DECISION,
  /** A reward for a request id the bandit has no record of (never seen, or completed long ago). */
  UNKNOWN_REQUEST,
  /** A reward for a request that has already expired (its timeout passed in stream time). */
  EXPIRED_REQUEST,
  /** A second reward for a request whose reward was already joined. */
  DUPLICATE_REWARD,
  /** A reward the bandit's link does not admit (logistic: [0, 1]); the request stays pending. */
  INVALID_REWARD,
  /** A decision on the decision log that names no arm of the bandit or a step it has not reached. */
  INVALID_DECISION,
  /** The arms' privacy budget allows no further round. */
  BUDGET_EXHAUSTED,
  /** A record in a routing partition that is not its bandit's home (not written by dpstream's routing). */
  MISPLACED_RECORD,
  /** The bandit's stored state was created elsewhere or before routing existed; neither resumed nor replaced. */
  MISPLACED_STATE,
  /**
   * Processing the record threw; the message names the exception's class. The record is skipped and the
   * bandit resumes from its last stored state (same code as {@code SampleRejection.PROCESSING_ERROR}).
   */
  PROCESSING_ERROR,
  /**
   * A bandit of privacyUnit by user got a decided request (or a context) without the person's id (the userId field,
   * or the configured header): it is not learnt.
   */
  MISSING_USER_ID,
  /**
   * The request's person has had the bandit's maxContributions requests accepted for learning already: its decision
   * stands (it is the person's own output), but it never becomes a round (same code as
   * {@code SampleRejection.CONTRIBUTION_LIMIT}).
   */
  CONTRIBUTION_LIMIT
}
