package org.dpstream.service.topology;

/**
 * Why a well-formed sample cannot be used; these codes, like the decoder's, go to dp.rejected and to
 * the metrics' reason tag, so renaming one is a breaking change.
 */
public enum SampleRejection {
  /** No key: the key names the model. */
  MISSING_KEY,
  /** The key names no configured model. */
  UNKNOWN_MODEL,
  /** Dense features of another length, or a sparse dimension other than the model's. */
  WRONG_DIMENSION,
  /** A sparse index out of range or repeated, or indices and values of different lengths. */
  INVALID_SPARSE_FEATURES,
  /** A label the model's loss does not accept (logistic labels lie in [0, 1]). */
  INVALID_LABEL,
  /** The model's privacy budget allows no further release (cannot happen inside a tree epoch). */
  BUDGET_EXHAUSTED,
  /**
   * The sample reached a routing partition that is not its model's home: it was not written by the
   * service's routing (e.g. produced straight into the internal topic). Stepping it would start a second
   * state of the model.
   */
  MISPLACED_SAMPLE,
  /**
   * The model's stored state was created elsewhere or before routing existed (another routingPartitions,
   * a changelog restored into another task, an upgrade): it is neither resumed nor replaced.
   */
  MISPLACED_STATE,
  /**
   * Processing the record threw (a bug, or a value no check foresaw); the message names the exception's
   * class. The record is skipped and processing goes on; the model resumes from its last stored state.
   */
  PROCESSING_ERROR,
  /** A model of privacyUnit by user got a sample without the person's id (the userId field, or the header). */
  MISSING_USER_ID,
  /**
   * The sample's person has contributed the model's maxContributions samples already: the sample never reaches the
   * model (it is bounded before any mechanism sees it).
   */
  CONTRIBUTION_LIMIT
}
