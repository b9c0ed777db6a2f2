package org.dpstream.service.serde;

/**
 * Why an input record could not be decoded. The names are the machine-readable codes written to
 * {@code dp.rejected} and used as metric tags, so renaming one is a breaking change.
 */
public enum RejectReason {
  /** Neither Avro single-object encoding nor JSON: truncated, corrupt, empty or not JSON at all. */
  UNDECODABLE,
  /** Avro single-object encoding whose schema fingerprint is not the schema of this topic. */
  UNKNOWN_SCHEMA_FINGERPRINT,
  /** JSON without a field that has no default. */
  MISSING_FIELD,
  /** JSON with a field the schema does not have (often a misspelt optional field). */
  UNKNOWN_FIELD,
  /** A JSON value of the wrong kind: a string for a number, a fraction for an int, null for a double. */
  WRONG_TYPE,
  /** NaN or an infinity where only finite numbers are accepted (in JSON or in Avro). */
  NON_FINITE_NUMBER
}
