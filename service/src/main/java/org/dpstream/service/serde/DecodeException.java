package org.dpstream.service.serde;

import java.util.Objects;

/**
 * An input record that could not be decoded, with a machine-readable {@link #reason()} for
 * {@code dp.rejected}. The message names the offending field but never quotes input values, so it
 * can be logged.
 *
 * <p>No stack trace is recorded: the cause is the input, not the code path, and malformed input can
 * arrive at the rate of valid input.
 */
public final class DecodeException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final RejectReason reason;

  public DecodeException(RejectReason reason, String message) {
    this(reason, message, null);
  }

  public DecodeException(RejectReason reason, String message, Throwable cause) {
    super(message, cause, false, false);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  public RejectReason reason() {
    return reason;
  }

  @Override
  public String toString() {
    return reason + ": " + getMessage();
  }
}
