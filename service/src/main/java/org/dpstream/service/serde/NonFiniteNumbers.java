package org.dpstream.service.serde;

/**
 * Whether a record type may hold NaN or infinite doubles. Inputs (samples, contexts, rewards) come
 * from producers we do not control and a single NaN would poison a model's running sums, so they
 * reject them; outputs we write ourselves may legitimately hold them (p = Infinity for l_inf).
 */
public enum NonFiniteNumbers {
  /** NaN and infinities fail decoding with {@link RejectReason#NON_FINITE_NUMBER}. */
  REJECT,
  /** NaN and infinities are kept; in JSON they are the strings "NaN", "Infinity", "-Infinity". */
  ALLOW
}
