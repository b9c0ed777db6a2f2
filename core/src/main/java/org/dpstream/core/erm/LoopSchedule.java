package org.dpstream.core.erm;

import java.util.Locale;
import org.dpstream.core.privacy.accounting.PrivacyBudget;

/**
 * The loop structure of Algorithm 1 of both DP-CD (Mangold et al. 2022) and DP-SkGD (Maranjyan et al.):
 * T outer iterations of K inner updates each. With averaging, each outer iteration restarts from
 * w^{t+1} = (1/K) sum_{k=1..K} theta^k (theta^0 excluded, theta^K included) and the output is w^T; without
 * averaging (what the DP-CD paper's experiments report) the output is the last iterate of T K updates.
 * The privacy cost depends only on T K.
 *
 * @param outerIterations T &gt;= 1
 * @param innerIterations K &gt;= 1
 * @param averaging whether to restart from the average after every K updates
 */
public record LoopSchedule(long outerIterations, long innerIterations, boolean averaging) {

  /** How the strongly convex inner-loop length K is chosen; see {@link #stronglyConvexTheorem}. */
  public enum InnerLoopLength {
    /** K = 2(1 + kappa), as printed in Theorem 4.2 (appendix E.2) of DP-SkGD. */
    PAPER,
    /**
     * K = 2(2 kappa + 1): the length for which the recursion really halves the gap. The default; see
     * {@link #stronglyConvexTheorem}.
     */
    CORRECTED
  }

  public LoopSchedule {
    if (outerIterations < 1 || innerIterations < 1) {
      throw new IllegalArgumentException(
          "need T >= 1 and K >= 1, got T=" + outerIterations + ", K=" + innerIterations);
    }
    Math.multiplyExact(outerIterations, innerIterations);
  }

  /** T = 1, K = steps, no averaging: the last iterate of {@code steps} updates. */
  public static LoopSchedule lastIterate(long steps) {
    return new LoopSchedule(1, steps, false);
  }

  /**
   * {@code passes} passes of {@code updatesPerPass} updates each: restarting from the average after every
   * pass, or the last iterate of them all.
   */
  public static LoopSchedule ofPasses(long passes, long updatesPerPass, boolean averaging) {
    long updates = Math.multiplyExact(passes, updatesPerPass);
    return averaging ? averaged(passes, updatesPerPass) : lastIterate(updates);
  }

  /** T outer iterations of K updates, restarting from the average each time. */
  public static LoopSchedule averaged(long outerIterations, long innerIterations) {
    return new LoopSchedule(outerIterations, innerIterations, true);
  }

  /**
   * DP-SkGD Theorem 4.2, convex case: T = 1 and K = ceil(n epsilon R / (Sigma_S sqrt(ln(1/delta)))), with
   * averaging (the output is the average of theta^1..theta^K).
   *
   * @param radiusBound a public upper bound R on ||w^0 - w*||_{M P^-1} (the theorem's K needs the unknown
   *     R; tuning it on the private data would cost privacy)
   * @param sigmaS Sigma_S = sqrt(E[L_S^2 sum_{j in S} 1/(p_j M_j)]), = ||L_A||_{M^-1} for block sampling
   */
  public static LoopSchedule convexTheorem(
      int samples, PrivacyBudget budget, double radiusBound, double sigmaS) {
    requirePositive(radiusBound, "radius bound");
    requirePositive(sigmaS, "Sigma_S");
    double k = samples * budget.epsilon() * radiusBound / (sigmaS * Math.sqrt(-Math.log(budget.delta())));
    return averaged(1, ceilAtLeastOne(k));
  }

  /**
   * DP-SkGD Theorem 4.2, strongly convex case, with kappa = max_j(M_j / p_j) / mu:
   * T = max(1, ceil(log2(gap n^2 epsilon^2 / ((1 + kappa) Sigma_S^2 ln(1/delta))))) and K by {@code
   * length}.
   *
   * <p>Reading followed (re-derived from appendix E.3): the last line of
   * Lemma E.1's proof drops a factor 2. Summing Lemma E.5 with alpha = 1/2 gives (1/2) sum_{k=1..K} F_k
   * &lt;= (1/2) D_0 + (1/2) F_0 + K N, i.e. F(w^{t+1}) &lt;= (D_0 + F_0)/K + 2N, not the printed
   * (D_0/2 + F_0)/K + N. With D_0 &lt;= 2 kappa F_0 this is (2 kappa + 1) F_0 / K + 2N, so the paper's K =
   * 2(1 + kappa) only contracts by (2 kappa + 1)/(2 kappa + 2); K = 2(2 kappa + 1) restores the factor 1/2
   * ({@link InnerLoopLength#CORRECTED}, the default). T keeps the paper's formula.
   *
   * @param gapBound a public upper bound on F(w^0) - F*
   */
  public static LoopSchedule stronglyConvexTheorem(int samples, PrivacyBudget budget, double kappa,
      double gapBound, double sigmaSSquared, InnerLoopLength length) {
    requirePositive(kappa, "kappa");
    requirePositive(gapBound, "gap bound");
    requirePositive(sigmaSSquared, "Sigma_S^2");
    double k = length == InnerLoopLength.PAPER ? 2 * (1 + kappa) : 2 * (2 * kappa + 1);
    double n = samples;
    double ratio = gapBound * n * n * budget.epsilon() * budget.epsilon()
        / ((1 + kappa) * sigmaSSquared * -Math.log(budget.delta()));
    double t = Math.log(ratio) / Math.log(2);
    return averaged(ceilAtLeastOne(t), ceilAtLeastOne(k));
  }

  /** T K, the number of updates and of composed Gaussian mechanisms. */
  public long totalUpdates() {
    return outerIterations * innerIterations;
  }

  private static long ceilAtLeastOne(double value) {
    if (!(value < 1e15)) {
      throw new IllegalArgumentException("loop length " + value + " is not representable");
    }
    return Math.max(1, (long) Math.ceil(value));
  }

  private static void requirePositive(double value, String name) {
    if (!(value > 0) || !Double.isFinite(value)) {
      throw new IllegalArgumentException(name + " must be positive and finite, got " + value);
    }
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "T=%d, K=%d, %s", outerIterations, innerIterations,
        averaging ? "averaged" : "last iterate");
  }
}
