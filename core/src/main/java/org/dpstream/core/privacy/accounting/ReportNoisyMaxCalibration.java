package org.dpstream.core.privacy.accounting;

/**
 * The Laplace scales of Algorithm 2 (DP-POFW, p = 1) and the privacy map of its proof (Theorem 3.4, appendix
 * A.6): report-noisy-min over the 2d vertices of the l1 ball, composed adaptively over the steps.
 *
 * <p><b>Scale (followed exactly as printed in Algorithm 2, line 8):</b>
 * b_t = 4 D (beta D + L) sqrt(ln n * ln(1/delta)) / (epsilon sqrt(t)), rounded up. The proof uses
 * Lap(2 s_t sqrt(t ln n ln(1/delta)) / epsilon) with s_t &lt;= 2 D (beta D + L) / (t + 1), i.e.
 * 4 D (beta D + L) sqrt(t ...) / (epsilon (t + 1)); since sqrt(t) / (t + 1) &lt; 1 / sqrt(t) the printed scale
 * is slightly larger than the proof needs, so the two are consistent.
 *
 * <p><b>Per-step loss.</b> C must be the l1 ball of radius D/2 (diameter D), as in the paper. Given the past
 * outputs, one sample moves d_t by at most 2 (beta D + L) / (t + 1) in l_inf, so every utility <d_t, v>,
 * ||v||_1 = D/2, moves by at most Delta_t = D (beta D + L) / (t + 1). Report noisy max with Lap(b) noise is
 * (2 Delta / b)-DP for arbitrary (non-monotone) utilities, so step t is pure epsilon_t-DP with
 * epsilon_t = 2 D (beta D + L) / ((t + 1) b_t) = epsilon sqrt(t) / (2 (t + 1) sqrt(ln n ln(1/delta))).
 * (The proof reaches the same epsilon_t with ||v||_1 &lt;= D and the monotone Claim 3.9 of Dwork and Roth;
 * the utilities here are not monotone, but the factor 2 it misses is exactly the one ||v||_1 = D/2 gives
 * back. For a general polytope of diameter D that would not hold.)
 *
 * <p><b>Composition.</b> The proof's Azuma argument gives, for steps 1..t,
 * epsilon'(t) = sum epsilon_j (e^{epsilon_j} - 1) + sqrt(2 ln(1/delta) sum epsilon_j^2) with the same delta
 * (advanced composition, Dwork, Rothblum and Vadhan 2010). Its last line replaces the first sum by
 * sum epsilon_j^2, which is smaller (e^x - 1 &gt;= x), and then asserts epsilon' &lt;= epsilon; that needs
 * H_n &lt;= 2 ln n and a small second-order term, which fails for some (n, epsilon, delta). We therefore
 * account with the uncorrupted bound, take the minimum with basic composition sum epsilon_j (also valid),
 * and <i>check</i> at construction that the cost at the horizon fits the budget; if not, the construction
 * fails rather than release under a guarantee the proof does not give.
 *
 * <p>Sums are exact (term by term, rounded up) for t &lt;= 1024 and, beyond, the exact prefix plus integral
 * upper bounds of the decreasing tails, so {@link #spentAfter(long)} is O(1).
 *
 * <p>Epochs: the steps are those of one run in which every d_t depends only on that run's samples. Unlike a
 * tree, the recursive gradient carries a sample into every later step, so continuing past the horizon
 * without restarting the recursion keeps composing: {@code spentAfter(t)} for t &gt; n keeps growing and the
 * ledger will refuse.
 */
public final class ReportNoisyMaxCalibration implements PrivacyCalibration {

  /** Accountant name recorded in ledgers. */
  public static final String ACCOUNTANT = "paper-thm-3.4";

  private static final int EXACT_PREFIX_STEPS = 1024;

  private final PrivacyBudget budget;
  private final long horizon;
  private final double diameter;
  private final double smoothness;
  private final double lipschitz;
  private final double scaleNumerator; // b_t = scaleNumerator / sqrt(t)
  private final double perStepFactor; // epsilon_t = perStepFactor * sqrt(t) / (t + 1)
  private final double logInverseDelta;
  // prefix sums over j = 1..t of epsilon_j, epsilon_j^2, epsilon_j (e^{epsilon_j} - 1); index t
  private final double[] sumEpsilon = new double[EXACT_PREFIX_STEPS + 1];
  private final double[] sumEpsilonSquared = new double[EXACT_PREFIX_STEPS + 1];
  private final double[] sumExpectedLoss = new double[EXACT_PREFIX_STEPS + 1];

  private ReportNoisyMaxCalibration(
      PrivacyBudget budget, long horizon, double diameter, double smoothness, double lipschitz) {
    this.budget = budget;
    this.horizon = horizon;
    this.diameter = diameter;
    this.smoothness = smoothness;
    this.lipschitz = lipschitz;
    this.logInverseDelta = -Math.log(budget.delta());
    double logHorizonTimesLogInverseDelta = Math.log(horizon) * logInverseDelta;
    this.scaleNumerator = 4.0 * diameter * (smoothness * diameter + lipschitz)
        * Math.sqrt(logHorizonTimesLogInverseDelta) / budget.epsilon();
    this.perStepFactor = Rounding.up(budget.epsilon() / (2.0 * Math.sqrt(logHorizonTimesLogInverseDelta)));
    for (int t = 1; t <= EXACT_PREFIX_STEPS; t++) {
      double epsilonT = perStepEpsilon(t);
      sumEpsilon[t] = sumEpsilon[t - 1] + epsilonT;
      sumEpsilonSquared[t] = sumEpsilonSquared[t - 1] + Rounding.up(epsilonT * epsilonT);
      sumExpectedLoss[t] = sumExpectedLoss[t - 1] + Rounding.up(epsilonT * Math.expm1(epsilonT));
    }
  }

  /**
   * @param budget (epsilon, delta) of one run; needs 0 &lt; delta
   * @param horizon n &gt;= 2 (the scale has ln n; n = 1 would mean no noise)
   * @param diameter D, the l1 diameter of C (C = l1 ball of radius D/2)
   * @param smoothness beta
   * @param lipschitz L (l_inf bound on one gradient)
   * @throws IllegalArgumentException if the composed cost at the horizon exceeds the budget
   */
  public static ReportNoisyMaxCalibration of(
      PrivacyBudget budget, long horizon, double diameter, double smoothness, double lipschitz) {
    if (horizon < 2) {
      throw new IllegalArgumentException("Algorithm 2 needs a horizon n >= 2 (its scale has ln n), got " + horizon);
    }
    if (budget.delta() == 0) {
      throw new IllegalArgumentException("Algorithm 2 needs delta > 0 (its scale has ln(1/delta)), got " + budget);
    }
    requireScoreBounds(diameter, smoothness, lipschitz);
    ReportNoisyMaxCalibration calibration =
        new ReportNoisyMaxCalibration(budget, horizon, diameter, smoothness, lipschitz);
    PrivacyBudget atHorizon = calibration.spentAfter(horizon);
    if (!atHorizon.isWithin(budget)) {
      throw new IllegalArgumentException("Algorithm 2's scale does not give " + budget + " over n = "
          + horizon + " steps under advanced composition: it costs " + atHorizon);
    }
    return calibration;
  }

  /** b_t of Algorithm 2, line 8, rounded up; t &gt;= 1. */
  public double laplaceScaleAt(long step) {
    requireStep(step);
    return Rounding.up(scaleNumerator / Math.sqrt(step));
  }

  /** epsilon_t = epsilon sqrt(t) / (2 (t + 1) sqrt(ln n ln(1/delta))), the pure-DP cost of step t, rounded up. */
  public double perStepEpsilon(long step) {
    requireStep(step);
    return Rounding.up(perStepFactor * Math.sqrt(step) / (step + 1.0));
  }

  /** min(basic, advanced composition) of steps 1..t with the budget's delta, rounded up. */
  @Override
  public PrivacyBudget spentAfter(long step) {
    requireStep(step);
    double basic;
    double squares;
    double expected;
    if (step <= EXACT_PREFIX_STEPS) {
      int t = (int) step;
      basic = sumEpsilon[t];
      squares = sumEpsilonSquared[t];
      expected = sumExpectedLoss[t];
    } else {
      // For j > T = EXACT_PREFIX_STEPS the terms decrease in j, so sum_{j=T+1..t} f(j) <= int_T^t f:
      //   int sqrt(x)/(x+1)   <= 2 (sqrt t - sqrt T)           (dropping -2 (atan sqrt t - atan sqrt T))
      //   int x/(x+1)^2       <= ln((t+1)/(T+1))               (dropping -(1/(T+1) - 1/(t+1)))
      //   x (e^x - 1) <= x^2 (e^{eps_T} - 1)/eps_T for x <= eps_T (convexity of e^x)
      double c = perStepFactor;
      double tail = step - EXACT_PREFIX_STEPS;
      double epsilonAtPrefixEnd = perStepEpsilon(EXACT_PREFIX_STEPS);
      double tailBasic = Rounding.up(2.0 * c * tail / (Math.sqrt(step) + Math.sqrt(EXACT_PREFIX_STEPS)));
      double tailSquares = Rounding.up(c * c * Math.log1p(tail / (EXACT_PREFIX_STEPS + 1.0)));
      double tailExpected = Rounding.up(tailSquares * Math.expm1(epsilonAtPrefixEnd) / epsilonAtPrefixEnd);
      basic = sumEpsilon[EXACT_PREFIX_STEPS] + tailBasic;
      squares = sumEpsilonSquared[EXACT_PREFIX_STEPS] + tailSquares;
      expected = sumExpectedLoss[EXACT_PREFIX_STEPS] + tailExpected;
    }
    double advanced = expected + Math.sqrt(2.0 * logInverseDelta * squares);
    return new PrivacyBudget(Rounding.up(Math.min(basic, advanced)), budget.delta());
  }

  /**
   * The bounds DP-POFW's vertex scores are calibrated from, here and in {@link
   * ExponentialMechanismCalibration}: a positive, finite l1 diameter D, and beta, L &gt;= 0 with beta D + L
   * (a score's sensitivity scale) positive and finite.
   */
  static void requireScoreBounds(double diameter, double smoothness, double lipschitz) {
    ZeroConcentratedDp.requirePositiveFinite(diameter, "diameter D");
    if (!(smoothness >= 0 && lipschitz >= 0 && smoothness * diameter + lipschitz > 0)
        || !Double.isFinite(smoothness * diameter + lipschitz)) {
      throw new IllegalArgumentException("need beta, L >= 0 with beta D + L positive and finite, got beta="
          + smoothness + ", L=" + lipschitz);
    }
  }

  private static void requireStep(long step) {
    if (step < 1) {
      throw new IllegalArgumentException("step must be at least 1, got " + step);
    }
  }

  @Override
  public String accountant() {
    return ACCOUNTANT;
  }

  @Override
  public PrivacyBudget budget() {
    return budget;
  }

  @Override
  public long horizon() {
    return horizon;
  }

  public double diameter() {
    return diameter;
  }

  public double smoothness() {
    return smoothness;
  }

  public double lipschitz() {
    return lipschitz;
  }

  @Override
  public String toString() {
    return "ReportNoisyMaxCalibration[budget=" + budget + ", n=" + horizon + ", D=" + diameter + ", beta="
        + smoothness + ", L=" + lipschitz + ", b_1=" + laplaceScaleAt(1) + "]";
  }
}
