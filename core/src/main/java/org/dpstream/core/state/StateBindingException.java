package org.dpstream.core.state;

import java.io.IOException;
import java.util.Optional;
import org.dpstream.core.privacy.random.KeyCheck;

/**
 * A saved state that this process must not resume because the noise it would regenerate is not the noise its
 * releases published: its key is not one this process holds, its noise law differs from this build's, or it was
 * written by a build that recorded neither. Such a state is never resumed and never replaced by a fresh one; the
 * message names the state (its model or bandit), what differs, and the key by its check value only.
 */
public final class StateBindingException extends IOException {

  /** What differs between the state and this process. */
  public enum Mismatch {
    /** The state's key (by its check value) is neither the primary nor a retired key of this process. */
    NOISE_KEY,
    /** The state's noise law (sigma, sampler, coefficients, derivation) is not this build's for its spec. */
    NOISE_LAW,
    /** Written by a build whose states name no key and no law: nothing shows which noise was published. */
    UNBOUND
  }

  private final Mismatch mismatch;
  private final transient KeyCheck boundKey;

  StateBindingException(Mismatch mismatch, KeyCheck boundKey, String message) {
    super(message, null);
    this.mismatch = mismatch;
    this.boundKey = boundKey;
  }

  /** The most urgent difference: the key before the law (a state whose key is missing cannot resume either way). */
  public Mismatch mismatch() {
    return mismatch;
  }

  /** The check value of the key the state is bound to; empty for an unbound state. */
  public Optional<KeyCheck> boundKey() {
    return Optional.ofNullable(boundKey);
  }
}
