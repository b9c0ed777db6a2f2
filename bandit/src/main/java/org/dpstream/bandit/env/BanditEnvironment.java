package org.dpstream.bandit.env;

/**
 * A simulated contextual bandit: a stream of rounds, each a context shared by the K arms with every
 * arm's mean and observed reward.
 *
 * <p>Contract: the sequence of rounds is a deterministic function of the environment's construction
 * arguments (seed included), so every policy run on the same seed sees the same contexts and the same
 * reward noise (paired comparisons). Knowing every arm's reward is a simulation device: a policy only
 * ever learns the reward of the arm it chose. Not thread-safe.
 */
public interface BanditEnvironment {

  /** K. */
  int arms();

  /** d, the length of every context. */
  int dimension();

  /** Short name for reports, e.g. {@code synthetic} or {@code fashion-mnist}. */
  String name();

  /** Data-independent bounds a private policy may be calibrated with (public knowledge). */
  EnvironmentBounds bounds();

  /** Draws the next round. */
  BanditRound nextRound();
}
