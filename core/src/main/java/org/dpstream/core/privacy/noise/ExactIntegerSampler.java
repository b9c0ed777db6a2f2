package org.dpstream.core.privacy.noise;

/**
 * An exact sampler of integers: every output is decided by integer comparisons of the bits it is given, so
 * a keyed bit source replays it bit for bit and no floating-point value decides an outcome.
 */
public interface ExactIntegerSampler {

  /** One draw. */
  long sample(RandomBits bits);
}
