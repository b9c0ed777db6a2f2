package org.dpstream.core.privacy.accounting;

/**
 * Zero-concentrated differential privacy (rho-zCDP, Bun and Steinke 2016) and its conversions to
 * (epsilon, delta)-DP.
 *
 * <ul>
 *   <li>Simple conversion (Bun and Steinke 2016, Proposition 1.3): rho-zCDP implies (epsilon, delta)-DP with
 *       epsilon = rho + 2 sqrt(rho ln(1/delta)). Its exact inverse is
 *       maxRho = (sqrt(ln(1/delta) + epsilon) - sqrt(ln(1/delta)))^2.
 *   <li>Tight conversion (Canonne, Kamath and Steinke 2020, Proposition 12 / Corollary 13): rho-zCDP implies
 *       (epsilon, delta)-DP for every alpha &gt; 1 with
 *       delta = exp((alpha-1)(alpha rho - epsilon)) / (alpha-1) * (1 - 1/alpha)^alpha. Solved for epsilon,
 *       epsilon(alpha) = alpha rho + (ln(1/delta) + alpha ln(1 - 1/alpha) - ln(alpha - 1)) / (alpha - 1),
 *       and epsilon is the infimum over alpha.
 * </ul>
 *
 * <p>Rounding: epsilons are rounded up and maxRho down. Because every alpha &gt; 1 gives a valid bound, the
 * tight conversion is safe however well the 1-D search over alpha converges: the search only decides how
 * tight it is. The tight results are never looser than the simple ones (we take the minimum).
 *
 * <p>All conversions need 0 &lt; delta &lt; 1.
 */
public final class ZeroConcentratedDp {

  // Search over u = ln(alpha - 1): a coarse grid, then golden-section refinement around the best point.
  private static final double LOG_ALPHA_MINUS_ONE_MIN = -30.0;
  private static final double LOG_ALPHA_MINUS_ONE_MAX = 45.0;
  private static final double GRID_STEP = 0.25;
  private static final int GOLDEN_SECTION_ITERATIONS = 90;
  private static final double INVERSE_GOLDEN_RATIO = (Math.sqrt(5.0) - 1.0) / 2.0;
  private static final int MAX_ADJUSTMENTS = 10_000;

  private ZeroConcentratedDp() {}

  /**
   * Bun and Steinke 2016, Proposition 1.6: the Gaussian mechanism with l2 sensitivity S and standard
   * deviation sigma is S^2 / (2 sigma^2)-zCDP. Rounded up.
   */
  public static double gaussianRho(double l2Sensitivity, double sigma) {
    requirePositiveFinite(l2Sensitivity, "l2 sensitivity");
    requirePositiveFinite(sigma, "sigma");
    return Rounding.up(l2Sensitivity * l2Sensitivity / (2.0 * sigma * sigma));
  }

  /** Simple conversion epsilon = rho + 2 sqrt(rho ln(1/delta)), rounded up. */
  public static double epsilon(double rho, double delta) {
    requireRho(rho);
    double logInverseDelta = logInverseDelta(delta);
    if (rho == 0) {
      return 0;
    }
    return Rounding.up(rho + 2.0 * Math.sqrt(rho * logInverseDelta));
  }

  /**
   * The largest rho whose simple conversion stays within epsilon: the closed-form inverse
   * (sqrt(ln(1/delta) + epsilon) - sqrt(ln(1/delta)))^2, rounded down and then checked with
   * {@link #epsilon(double, double)} itself, so that {@code epsilon(maxRho(e, d), d) <= e} holds for the
   * doubles, not just for the reals.
   */
  public static double maxRho(double epsilon, double delta) {
    requirePositiveFinite(epsilon, "epsilon");
    double logInverseDelta = logInverseDelta(delta);
    // Written as (eps / (sqrt(L + eps) + sqrt(L)))^2 to avoid the cancellation of the textbook form.
    double root = epsilon / (Math.sqrt(logInverseDelta + epsilon) + Math.sqrt(logInverseDelta));
    double rho = Rounding.down(root * root);
    for (int i = 0; epsilon(rho, delta) > epsilon; i++) {
      rho = Rounding.down(rho);
      requireConverged(i, "maxRho");
    }
    return rho;
  }

  /** Tight conversion of Canonne, Kamath and Steinke 2020, rounded up; never above {@link #epsilon}. */
  public static double epsilonTight(double rho, double delta) {
    requireRho(rho);
    double logInverseDelta = logInverseDelta(delta);
    if (rho == 0) {
      return 0;
    }
    double best = minimiseOverAlpha(rho, logInverseDelta);
    // The bound can be negative: for delta close to 1, and for rho below about delta^2, where at alpha near 1/delta
    // ln(1/delta) + (alpha - 1) ln(1 - 1/alpha) - ln(alpha) is about -1 and outweighs alpha rho. Any positive
    // epsilon is then valid too.
    return Math.max(Math.min(best, epsilon(rho, delta)), Double.MIN_VALUE);
  }

  /**
   * The largest rho whose tight conversion stays within epsilon, found by bisection on rho with
   * {@link #epsilonTight} itself as the test, so {@code epsilonTight(maxRhoTight(e, d), d) <= e} holds for the
   * doubles. Always at least {@link #maxRho}.
   */
  public static double maxRhoTight(double epsilon, double delta) {
    requirePositiveFinite(epsilon, "epsilon");
    double[] last = lastMaxRhoTight; // {epsilon, delta, maxRhoTight}: one immutable array, read once
    if (last != null && last[0] == epsilon && last[1] == delta) {
      return last[2];
    }
    double result = searchMaxRhoTight(epsilon, delta);
    lastMaxRhoTight = new double[] {epsilon, delta, result};
    return result;
  }

  /**
   * The last answer of {@link #maxRhoTight}, a pure function that costs about 10^5 evaluations: the plans
   * {@code accountant: auto} compares for one model each read the same (epsilon, delta).
   */
  private static volatile double[] lastMaxRhoTight;

  /**
   * Forgets the last answer; only tests call it. Mutation testing hot-swaps one mutant after another into one JVM, and an
   * entry built under an earlier mutant would answer for the code under test: tests start from an empty cache.
   */
  static void clearForTests() {
    lastMaxRhoTight = null;
  }

  private static double searchMaxRhoTight(double epsilon, double delta) {
    double within = maxRho(epsilon, delta); // epsilonTight <= epsilon (simple), so this one passes
    double beyond = Math.max(2.0 * within, Double.MIN_NORMAL);
    for (int i = 0; epsilonTight(beyond, delta) <= epsilon; i++) {
      within = beyond;
      beyond *= 2.0;
      requireConverged(i, "maxRhoTight bracket");
    }
    while (true) {
      double middle = within + (beyond - within) / 2.0;
      if (middle <= within || middle >= beyond) {
        return within; // adjacent doubles: within is the largest rho known to pass
      }
      if (epsilonTight(middle, delta) <= epsilon) {
        within = middle;
      } else {
        beyond = middle;
      }
    }
  }

  /** min over alpha of the rounded-up epsilon(alpha); each evaluation is itself a valid bound. */
  private static double minimiseOverAlpha(double rho, double logInverseDelta) {
    double bestU = LOG_ALPHA_MINUS_ONE_MIN;
    double best = Double.POSITIVE_INFINITY;
    for (double u = LOG_ALPHA_MINUS_ONE_MIN; u <= LOG_ALPHA_MINUS_ONE_MAX; u += GRID_STEP) {
      double value = epsilonAtAlpha(Math.exp(u), rho, logInverseDelta);
      if (value < best) {
        best = value;
        bestU = u;
      }
    }
    // Refine around the best grid point (the objective is unimodal in practice; if it were not, we would
    // only lose tightness, never validity, since every evaluated alpha gives a valid bound).
    double low = bestU - GRID_STEP;
    double high = bestU + GRID_STEP;
    double left = high - INVERSE_GOLDEN_RATIO * (high - low);
    double right = low + INVERSE_GOLDEN_RATIO * (high - low);
    double leftValue = epsilonAtAlpha(Math.exp(left), rho, logInverseDelta);
    double rightValue = epsilonAtAlpha(Math.exp(right), rho, logInverseDelta);
    for (int i = 0; i < GOLDEN_SECTION_ITERATIONS; i++) {
      if (leftValue <= rightValue) {
        high = right;
        right = left;
        rightValue = leftValue;
        left = high - INVERSE_GOLDEN_RATIO * (high - low);
        leftValue = epsilonAtAlpha(Math.exp(left), rho, logInverseDelta);
      } else {
        low = left;
        left = right;
        leftValue = rightValue;
        right = low + INVERSE_GOLDEN_RATIO * (high - low);
        rightValue = epsilonAtAlpha(Math.exp(right), rho, logInverseDelta);
      }
      best = Math.min(best, Math.min(leftValue, rightValue));
    }
    return best;
  }

  /**
   * epsilon(alpha), rounded up, parametrised by a = alpha - 1 &gt; 0 to avoid cancellation near alpha = 1:
   * alpha rho + (L + alpha ln(1 - 1/alpha) - ln(alpha - 1)) / (alpha - 1)
   * = rho (1 + a) + L / a - log1p(1/a) - log1p(a) / a, with L = ln(1/delta).
   */
  private static double epsilonAtAlpha(double alphaMinusOne, double rho, double logInverseDelta) {
    double positive = rho * (1.0 + alphaMinusOne) + logInverseDelta / alphaMinusOne;
    double negative = Math.log1p(1.0 / alphaMinusOne) + Math.log1p(alphaMinusOne) / alphaMinusOne;
    return Rounding.upDifference(positive, negative);
  }

  private static double logInverseDelta(double delta) {
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("zCDP conversion needs 0 < delta < 1, got " + delta);
    }
    return -Math.log(delta);
  }

  private static void requireRho(double rho) {
    if (!(rho >= 0) || !Double.isFinite(rho)) {
      throw new IllegalArgumentException("rho must be non-negative and finite, got " + rho);
    }
  }

  static void requirePositiveFinite(double value, String name) {
    if (!(value > 0) || !Double.isFinite(value)) {
      throw new IllegalArgumentException(name + " must be positive and finite, got " + value);
    }
  }

  private static void requireConverged(int iteration, String what) {
    if (iteration >= MAX_ADJUSTMENTS) {
      throw new IllegalStateException(what + " did not converge; this is a bug");
    }
  }
}
