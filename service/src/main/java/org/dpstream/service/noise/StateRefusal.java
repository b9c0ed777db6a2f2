package org.dpstream.service.noise;

import org.dpstream.core.state.StateBindingException;

/**
 * Why a model or bandit is stopped rather than resumed or started: every record of it goes to dp.rejected with
 * this code (its original bytes kept, so the operator can replay it once the cause is fixed), /ready answers 503
 * naming it, and one line is logged. The store keeps the state as it was. Like the other reject reasons, these codes
 * go to dp.rejected and to the metrics' reason tag: renaming one is a breaking change.
 */
public enum StateRefusal {
  /** The stored state is bound to a noise key this process holds neither as primary nor as retired. */
  NOISE_KEY_MISMATCH,
  /** The stored state was written under another noise law (a sigma, sampler, coefficient or derivation changed). */
  NOISE_LAW_CHANGED,
  /** The stored state was written by a build that recorded neither its key nor its law. */
  STATE_UNBOUND,
  /** No stored state, but the model's current noise generation has published releases (its state was lost). */
  STATE_LOST,
  /** The stored state is behind the newest step its generation published (e.g. a restored backup). */
  STATE_BEHIND_RELEASES,
  /** The configured noise generation is below one the model has published in or its state lives in. */
  NOISE_GENERATION_MISMATCH;

  /** The code of a binding the core refused. */
  public static StateRefusal of(StateBindingException.Mismatch mismatch) {
    return switch (mismatch) {
      case NOISE_KEY -> NOISE_KEY_MISMATCH;
      case NOISE_LAW -> NOISE_LAW_CHANGED;
      case UNBOUND -> STATE_UNBOUND;
    };
  }
}
