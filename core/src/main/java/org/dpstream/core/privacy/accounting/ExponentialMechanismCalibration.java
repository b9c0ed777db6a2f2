package org.dpstream.core.privacy.accounting;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * DP-POFW's noisy vertex choice as the exponential mechanism, accounted in zCDP: an alternative to the
 * Laplace report-noisy-min of Algorithm 2 ({@link ReportNoisyMaxCalibration}) that spends the same
 * budget on far less noise.
 *
 * <p><b>Mechanism.</b> At step t, choose the vertex v of the l1 ball maximising -&lt;d_t, v&gt; + G_v with
 * G_v iid Gumbel(0, beta_t): that is sampling v with probability proportional to
 * exp(epsilon_t u(v) / (2 Delta_t)) for u(v) = -&lt;d_t, v&gt; and beta_t = 2 Delta_t / epsilon_t, the exponential
 * mechanism (the Gumbel-max trick). Given the past outputs one sample moves every utility by at most
 * Delta_t = D (beta D + L) / (t + 1), as in the paper's proof of Theorem 3.4.
 *
 * <p><b>Accounting.</b> The exponential mechanism is epsilon_t-bounded-range (Durfee and Rogers 2019), and
 * epsilon-bounded-range implies (epsilon^2 / 8)-zCDP (Cesar and Rogers 2021): four times less than the
 * epsilon^2 / 2 of a pure epsilon-DP step such as Laplace report-noisy-min. zCDP composes adaptively by
 * summing; the total is converted to (epsilon, delta) with the tight conversion of Canonne, Kamath and
 * Steinke (2020).
 *
 * <p><b>Schedule.</b> epsilon_t = c / sqrt(t), the paper's shape (its Laplace scale falls as 1/sqrt(t)), so
 * rho(t) = c^2 H_t / 8 with H_t the harmonic number; c is the largest value with rho(n) within the
 * budget. H_t is bounded from above by its exact sum for t &lt;= 1024 and by ln t + gamma + 1/(2t) beyond
 * (the Euler-Maclaurin remainder is negative), both rounded up; beta_t is rounded up, so the effective
 * epsilon_t is at most the nominal one. Past the horizon the caller restarts the recursion (a new epoch),
 * as for Algorithm 2.
 */
public final class ExponentialMechanismCalibration implements PrivacyCalibration {

  private static final int EXACT_PREFIX_STEPS = 1024;
  private static final double EULER_GAMMA_UP = 0.5772156649015329;
  private static final double SHRINK = 1 - 0x1p-30;
  private static final int MAX_SHRINKS = 64;

  private final PrivacyBudget budget;
  private final long horizon;
  private final double utilitySensitivityNumerator; // Delta_t = numerator / (t + 1)
  private final ZcdpConversion conversion;
  private final double scheduleConstant; // c of epsilon_t = c / sqrt(t)
  private final double[] harmonicUp = new double[EXACT_PREFIX_STEPS + 1];
  /**
   * The privacy map at checkpoints: every t up to 64, then a factor 1.011 apart in t (about 1/91), and the
   * horizon. The ledger asks for it at every step and the tight conversion is a numeric search, so it is evaluated
   * once per checkpoint; a step between checkpoints is charged the next checkpoint's value, never less.
   */
  private final long[] checkpoints;
  private final PrivacyBudget[] spentAtCheckpoints;

  private ExponentialMechanismCalibration(PrivacyBudget budget, long horizon, double diameter, double smoothness,
      double lipschitz, ZcdpConversion conversion) {
    this.budget = budget;
    this.horizon = horizon;
    this.utilitySensitivityNumerator = Rounding.up(diameter * Rounding.up(smoothness * diameter + lipschitz));
    this.conversion = conversion;
    for (int t = 1; t <= EXACT_PREFIX_STEPS; t++) {
      harmonicUp[t] = Rounding.up(harmonicUp[t - 1] + 1.0 / t);
    }
    double rhoBudget = conversion.maxRho(budget.epsilon(), budget.delta());
    double c = Rounding.down(Math.sqrt(Rounding.down(8 * rhoBudget / harmonicUpperBound(horizon))));
    for (int shrink = 0; !fits(c); shrink++) {
      if (shrink == MAX_SHRINKS) {
        throw new IllegalStateException("could not calibrate the exponential mechanism within " + budget + "; a bug");
      }
      c = c * SHRINK;
    }
    this.scheduleConstant = c;
    this.checkpoints = checkpoints(horizon);
    this.spentAtCheckpoints = new PrivacyBudget[checkpoints.length];
    for (int i = 0; i < checkpoints.length; i++) {
      spentAtCheckpoints[i] = spentAfter(checkpoints[i], c);
    }
  }

  private static long[] checkpoints(long horizon) {
    List<Long> points = new ArrayList<>();
    for (long t = 1; t <= Math.min(64, horizon); t++) {
      points.add(t);
    }
    for (long t = 64; t < horizon; ) {
      t = Math.min(horizon, Math.max(t + 1, (long) Math.ceil(t * 1.011)));
      points.add(t);
    }
    return points.stream().mapToLong(Long::longValue).distinct().toArray();
  }

  private boolean fits(double c) {
    return spentAfter(horizon, c).isWithin(budget);
  }

  /**
   * @param budget of one epoch's releases; needs delta &gt; 0
   * @param horizon steps of one epoch (at least 2)
   * @param diameter D, the l1 diameter of the ball
   * @param smoothness beta
   * @param lipschitz L (l_inf bound on one gradient term)
   */
  public static ExponentialMechanismCalibration of(
      PrivacyBudget budget, long horizon, double diameter, double smoothness, double lipschitz) {
    if (horizon < 2) {
      throw new IllegalArgumentException("horizon must be at least 2, got " + horizon);
    }
    if (budget.delta() == 0) {
      throw new IllegalArgumentException("zCDP accounting needs delta > 0, got " + budget);
    }
    ReportNoisyMaxCalibration.requireScoreBounds(diameter, smoothness, lipschitz);
    return new ExponentialMechanismCalibration(budget, horizon, diameter, smoothness, lipschitz, ZcdpConversion.TIGHT);
  }

  /** An upper bound on H_t = sum_{j <= t} 1/j. */
  double harmonicUpperBound(long t) {
    if (t <= EXACT_PREFIX_STEPS) {
      return harmonicUp[(int) t];
    }
    return Rounding.up(Math.log(t) + EULER_GAMMA_UP + 0.5 / t);
  }

  /** epsilon_t = c / sqrt(t), the nominal bounded-range parameter of step t. */
  public double perStepEpsilon(long step) {
    requireStep(step);
    return scheduleConstant / Math.sqrt(step);
  }

  /** beta_t = 2 Delta_t / epsilon_t, rounded up: the Gumbel scale of step t. */
  public double gumbelScaleAt(long step) {
    requireStep(step);
    double delta = utilitySensitivityNumerator / (step + 1.0);
    return Rounding.up(2 * delta * Math.sqrt(step) / scheduleConstant);
  }

  /**
   * rho(t) = c^2 H_t / 8 converted with the tight conversion at the budget's delta, rounded up, and
   * taken at the first checkpoint at or after t (the map is non-decreasing, so that is an upper bound).
   */
  @Override
  public PrivacyBudget spentAfter(long step) {
    requireStep(step);
    if (step > horizon) {
      return spentAfter(step, scheduleConstant);
    }
    int index = Arrays.binarySearch(checkpoints, step);
    return spentAtCheckpoints[index >= 0 ? index : -index - 1];
  }

  /** The map at t without checkpoints: for tests. */
  PrivacyBudget exactSpentAfter(long step) {
    return spentAfter(step, scheduleConstant);
  }

  private PrivacyBudget spentAfter(long step, double c) {
    double rho = Rounding.up(c * c * harmonicUpperBound(step) / 8);
    return new PrivacyBudget(Rounding.up(conversion.epsilon(rho, budget.delta())), budget.delta());
  }

  private static void requireStep(long step) {
    if (step < 1) {
      throw new IllegalArgumentException("step must be at least 1, got " + step);
    }
  }

  @Override
  public String accountant() {
    return "zcdp-" + conversion.citation() + "-exponential-mechanism";
  }

  @Override
  public PrivacyBudget budget() {
    return budget;
  }

  @Override
  public long horizon() {
    return horizon;
  }

  @Override
  public String toString() {
    return "ExponentialMechanismCalibration[" + budget + ", n=" + horizon + ", c=" + scheduleConstant + "]";
  }
}
