package org.dpstream.service.serde;

import java.util.Objects;

/**
 * The outcome of decoding one input record: a value, or the reason it was rejected. The decode
 * step of a topology branches on this instead of catching exceptions, which keeps the rejection
 * path as ordinary control flow next to the original bytes it must forward to {@code dp.rejected}.
 *
 * @param <T> the record type
 */
public sealed interface DecodeResult<T> {

  /** A decoded value. */
  record Decoded<T>(T value) implements DecodeResult<T> {
    public Decoded {
      Objects.requireNonNull(value, "value");
    }
  }

  /** A rejected input. */
  record Rejected<T>(RejectReason reason, String message) implements DecodeResult<T> {
    public Rejected {
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(message, "message");
    }

    static <T> Rejected<T> of(DecodeException e) {
      return new Rejected<>(e.reason(), e.getMessage());
    }
  }
}
