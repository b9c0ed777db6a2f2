package org.dpstream.bandit;

/**
 * A contextual bandit policy with the decision split from the update, because in a service the reward
 * of a decision arrives later (or never), after other decisions were made.
 *
 * <p>Contract: {@link #decide} does not change the learned state (it may read it); {@link #update} is
 * one learning round with the context the decision was made on, the arm chosen and the reward
 * observed. Running decide-then-update for each round in order gives the paper's loop. Not
 * thread-safe.
 */
public interface BanditPolicy {

  int arms();

  int dimension();

  /** Rounds learned so far (updates applied). */
  long rounds();

  /** Chooses an arm for a context with the current state. */
  Decision decide(double[] context);

  /**
   * One learning round: the reward observed for {@code decision} on {@code context}.
   *
   * @throws IllegalArgumentException on a context of the wrong dimension or non-finite values
   */
  void update(Decision decision, double[] context, double reward);

  /** Short name for reports, e.g. {@code dp-hdb} or {@code dp-ucb}. */
  String name();
}
