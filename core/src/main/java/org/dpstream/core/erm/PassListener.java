package org.dpstream.core.erm;

/**
 * Receives the released model after every pass (see {@link ErmProblem} for what a pass is). Releasing all
 * these models is covered by the run's privacy guarantee (post-processing of the noisy updates).
 */
@FunctionalInterface
public interface PassListener {

  /** Ignores every pass. */
  PassListener NONE = (pass, weights) -> {};

  /**
   * @param pass 1, 2, ... (a trailing partial pass, if the update count is not a multiple of the pass
   *     length, is reported as one more pass)
   * @param weights the model after that pass: the current iterate, or with periodic averaging the latest
   *     average; a fresh copy the listener may keep
   */
  void onPass(int pass, double[] weights);
}
