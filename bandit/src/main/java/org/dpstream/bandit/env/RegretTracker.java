package org.dpstream.bandit.env;

/**
 * Regret bookkeeping of one run: cumulative pseudo regret Regret(T) = sum_t max_i mean_{t,i} -
 * mean_{t,a_t} (Han et al., section 4.1, with the identity link), its value after every round, and
 * the fraction of rounds whose chosen arm was optimal (the accuracy, on classification data).
 */
public final class RegretTracker {

  private final double[] cumulativeByRound;
  private int rounds;
  private int optimalChoices;
  private double cumulative;

  /** @param horizon the most rounds that will be recorded */
  public RegretTracker(int horizon) {
    if (horizon < 1) {
      throw new IllegalArgumentException("horizon must be positive: " + horizon);
    }
    this.cumulativeByRound = new double[horizon];
  }

  /** Records that {@code chosenArm} was played in {@code round}. */
  public void record(BanditRound round, int chosenArm) {
    if (rounds == cumulativeByRound.length) {
      throw new IllegalStateException("already recorded the horizon of " + rounds + " rounds");
    }
    cumulative += round.regretOf(chosenArm);
    if (round.isOptimal(chosenArm)) {
      optimalChoices++;
    }
    cumulativeByRound[rounds++] = cumulative;
  }

  public int rounds() {
    return rounds;
  }

  public double cumulativeRegret() {
    return cumulative;
  }

  /** Fraction of the recorded rounds whose arm was optimal; NaN before the first round. */
  public double optimalChoiceRate() {
    return rounds == 0 ? Double.NaN : (double) optimalChoices / rounds;
  }

  /** Cumulative regret after rounds 1..{@link #rounds()} (index t - 1 for round t). */
  public double[] cumulativeRegretByRound() {
    return java.util.Arrays.copyOf(cumulativeByRound, rounds);
  }
}
