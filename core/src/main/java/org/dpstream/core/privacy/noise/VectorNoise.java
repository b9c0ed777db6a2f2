package org.dpstream.core.privacy.noise;

import org.apache.commons.rng.UniformRandomProvider;

/**
 * A distribution of noise vectors in R^d.
 *
 * <p>Contract: implementations are immutable and hold no randomness of their own; every draw is a
 * deterministic function of the bits passed in. That is what lets the tree mechanism regenerate a
 * node's noise from the keyed source instead of storing it.
 */
public interface VectorNoise {

  /** Dimension d of the vectors drawn. */
  int dimension();

  /**
   * Overwrites {@code out} (length {@link #dimension()}) with one draw.
   *
   * @throws IllegalArgumentException if {@code out.length != dimension()}
   */
  void sample(UniformRandomProvider bits, double[] out);

  /** A short description with the parameters, e.g. {@code gaussian(d=20, sigma=3.1)}; never key material. */
  String describe();
}
