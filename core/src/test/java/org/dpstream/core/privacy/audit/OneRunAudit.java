package org.dpstream.core.privacy.audit;

import java.util.Comparator;
import java.util.Locale;
import java.util.stream.IntStream;
import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.apache.commons.statistics.distribution.NormalDistribution;

/**
 * The one-run audit of T. Steinke, M. Nasr and M. Jagielski, "Privacy Auditing with One (1) Training Run", NeurIPS
 * 2023 (arXiv 2305.08846): m canaries, each put into the one run with an independent fair coin S_i in {-1, +1}; the
 * auditor scores each from the run's output, guesses +1 for the k_+ highest scores and -1 for the k_- lowest
 * (abstaining on the rest, r = k_+ + k_- guesses) and counts the correct guesses W.
 *
 * <p>The paper's main theorem (the bound whose computation its Appendix D gives): if the run is (eps, delta)-DP in each
 * S_i, then for every v
 *
 * <pre>
 *   P[W >= v] <= f(v) + 2 m delta max_{i = 1..m} (f(v - i) - f(v)) / i,    f(v) = P[Binomial(r, e^eps / (1 + e^eps)) >= v].
 * </pre>
 *
 * The right-hand side is the p-value of observing v correct guesses under an (eps, delta)-DP null ({@link #pValue});
 * the lower bound is the largest eps whose p-value is still below beta ({@link #epsilonLowerBound}): with probability
 * at least 1 - beta over the coins and the run's noise, an (eps, delta)-DP run gives a bound of at most eps. (f(v - i)
 * is 1 for i >= v, so the maximum is attained at i <= v.)
 *
 * <p>The binomial tail is commons-statistics'; the search over eps is by hand because the p-value is monotone in eps and
 * bisection on it is four lines. Immutable.
 */
public final class OneRunAudit {

  private final double delta;
  private final double beta;

  private OneRunAudit(double delta, double beta) {
    if (!(delta >= 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in [0, 1): " + delta);
    }
    if (!(beta > 0 && beta < 1)) {
      throw new IllegalArgumentException("beta must be in (0, 1): " + beta);
    }
    this.delta = delta;
    this.beta = beta;
  }

  /** An audit of (eps, {@code delta})-DP claims whose bounds hold with probability 1 - {@code beta}. */
  public static OneRunAudit of(double delta, double beta) {
    return new OneRunAudit(delta, beta);
  }

  /**
   * The theorem's bound on P[W >= v] for m canaries, r guesses and an (eps, delta)-DP run, capped at 1.
   *
   * @throws IllegalArgumentException unless 0 <= v <= r <= m and eps >= 0
   */
  public static double pValue(int m, int r, int v, double eps, double delta) {
    if (!(0 <= v && v <= r && r <= m)) {
      throw new IllegalArgumentException("need 0 <= v <= r <= m: v = " + v + ", r = " + r + ", m = " + m);
    }
    if (!(eps >= 0)) {
      throw new IllegalArgumentException("eps must be >= 0: " + eps);
    }
    if (r == 0) {
      return 1;
    }
    // e^eps / (1 + e^eps), the accuracy of eps-DP randomized response, written so that a large eps does not overflow.
    double accuracy = 1 / (1 + Math.exp(-eps));
    BinomialDistribution guesses = BinomialDistribution.of(r, accuracy);
    double tail = atLeast(guesses, v);
    if (delta == 0) {
      return Math.min(1, tail);
    }
    double largestSlope = 0;
    double between = 0; // f(v - i) - f(v) = P[v - i <= Binomial < v]
    for (int i = 1; i <= v; i++) {
      between += guesses.probability(v - i);
      largestSlope = Math.max(largestSlope, between / i);
    }
    return Math.min(1, tail + 2.0 * m * delta * largestSlope);
  }

  private static double atLeast(BinomialDistribution guesses, int v) {
    return v == 0 ? 1 : guesses.survivalProbability(v - 1);
  }

  /**
   * The largest eps (within 1e-6) whose p-value for v correct of r guesses among m canaries is below beta, or 0 when
   * even eps = 0 explains them.
   */
  public double epsilonLowerBound(int m, int r, int v) {
    if (!(pValue(m, r, v, 0, delta) < beta)) {
      return 0;
    }
    double below = 0; // p-value < beta here
    double above = 1; // p-value >= beta here
    while (pValue(m, r, v, above, delta) < beta) {
      below = above;
      above *= 2;
      if (above > 1e3) {
        return below; // every guess right with r this large: bounded only by the search
      }
    }
    while (above - below > 1e-6) {
      double middle = (below + above) / 2;
      if (pValue(m, r, v, middle, delta) < beta) {
        below = middle;
      } else {
        above = middle;
      }
    }
    return below;
  }

  /**
   * Guesses +1 for the {@code plus} highest scores and -1 for the {@code minus} lowest, and counts the correct ones
   * against {@code included} (S_i = +1 where true).
   */
  public Result guess(double[] scores, boolean[] included, int plus, int minus) {
    int m = scores.length;
    if (included.length != m) {
      throw new IllegalArgumentException("one coin per canary: " + included.length + " coins, " + m + " scores");
    }
    if (plus < 0 || minus < 0 || plus + minus > m) {
      throw new IllegalArgumentException("need 0 <= k+ + k- <= m: " + plus + " + " + minus + " of " + m);
    }
    for (int i = 0; i < m; i++) {
      if (Double.isNaN(scores[i])) {
        throw new IllegalArgumentException("score of canary " + i + " is NaN");
      }
    }
    Integer[] order = IntStream.range(0, m).boxed().sorted(Comparator.comparingDouble(i -> scores[i]))
        .toArray(Integer[]::new);
    int correct = 0;
    for (int j = 0; j < minus; j++) {
      correct += included[order[j]] ? 0 : 1;
    }
    for (int j = m - plus; j < m; j++) {
      correct += included[order[j]] ? 1 : 0;
    }
    int r = plus + minus;
    return new Result(m, r, correct, epsilonLowerBound(m, r, correct), delta, beta);
  }

  /**
   * The rate of wrong guesses a Gaussian score model predicts: canary i scores S_i c + N(0, sigma^2), and the share q
   * of highest scores is guessed in (by symmetry the q lowest out). The highest q lie above tau with 0.5 Phi-bar((tau -
   * c) / sigma) + 0.5 Phi-bar((tau + c) / sigma) = q, and of those a fraction 0.5 Phi-bar((tau + c) / sigma) / q came
   * from canaries left out.
   */
  public static double gaussianWrongGuessRate(double c, double sigma, double share) {
    if (!(c > 0 && sigma > 0 && share > 0 && share < 0.5)) {
      throw new IllegalArgumentException("need c > 0, sigma > 0, 0 < q < 1/2: " + c + ", " + sigma + ", " + share);
    }
    NormalDistribution normal = NormalDistribution.of(0, 1);
    double low = -c - 40 * sigma;
    double high = c + 40 * sigma;
    for (int i = 0; i < 200; i++) {
      double tau = (low + high) / 2;
      double tail = 0.5 * normal.survivalProbability((tau - c) / sigma) + 0.5 * normal.survivalProbability((tau + c) / sigma);
      if (tail > share) {
        low = tau;
      } else {
        high = tau;
      }
    }
    return 0.5 * normal.survivalProbability((low + c) / sigma) / share;
  }

  /**
   * The bound an audit of r guesses among m canaries gives when each guess is wrong with probability {@code wrongRate}
   * and the wrong guesses come out {@code deviations} standard deviations of Binomial(r, wrongRate) above their mean:
   * the margin by which a control is caught, derived before it runs.
   */
  public double pessimisticBound(int m, int r, double wrongRate, double deviations) {
    double wrong = r * wrongRate + deviations * Math.sqrt(r * wrongRate * (1 - wrongRate));
    return epsilonLowerBound(m, r, Math.max(0, (int) Math.floor(r - wrong)));
  }

  /** The audit's outcome: m canaries, r guesses, v of them right, and the lower bound on eps at 1 - beta. */
  public record Result(int canaries, int guesses, int correct, double epsilonLowerBound, double delta, double beta) {

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "one-run audit: %d of %d guesses right among %d canaries: eps >= %.3f"
          + " (delta = %s, confidence %s)", correct, guesses, canaries, epsilonLowerBound, delta, 1 - beta);
    }
  }

  @Override
  public String toString() {
    return "OneRunAudit(delta=" + delta + ", beta=" + beta + ")";
  }
}
