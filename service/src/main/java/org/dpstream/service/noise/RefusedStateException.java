package org.dpstream.service.noise;

import org.dpstream.core.state.StateBindingException;

/** A model's or bandit's state that is neither resumed nor replaced, with the code and message its records carry. */
public final class RefusedStateException extends RuntimeException {

  private final StateRefusal reason;

  public RefusedStateException(StateRefusal reason, String message) {
    super(message, null, false, false);
    this.reason = reason;
  }

  /** The refusal of a binding the core refused (its message names the state and the key by its check value). */
  public static RefusedStateException of(StateBindingException e) {
    return new RefusedStateException(StateRefusal.of(e.mismatch()), e.getMessage());
  }

  public StateRefusal reason() {
    return reason;
  }
}
