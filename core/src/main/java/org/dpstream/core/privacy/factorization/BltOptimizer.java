package org.dpstream.core.privacy.factorization;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

/**
 * BLT parameters for a horizon: those minimising the max loss F(n) E(n) ({@link BltStrategy#maxLoss}), the
 * worst per-step error of the release at a fixed privacy level (McMahan et al. 2024 optimise the same
 * objective for single participation).
 *
 * <p>Public and deterministic: the objective depends on n and the number of buffers only (never on data),
 * and the optimiser is a plain Nelder-Mead simplex with fixed start, coefficients and stopping rule over
 * IEEE doubles and {@link StrictMath}, so a horizon gives bit-identical parameters on every JVM; replays and
 * restores rebuild the same mechanism. Results are cached per (horizon, buffers): an instance per block or
 * per model costs a map look-up after the first (the first takes tens of milliseconds).
 *
 * <p>Parameterisation: x = (ln(1 - theta_i), ln omega_i), unconstrained; points whose parameters are not
 * admissible ({@link BltStrategy#of}) score +infinity, which the simplex avoids. The start approximates the
 * square root's coefficients r_k ~ 1 / sqrt(pi k): 1 / sqrt(k) = (1 / sqrt(pi)) int_0^inf e^(-g k) g^(-1/2) dg,
 * discretised at m log-spaced rates g_i = n^(-(i + 1/2) / m) with spacing Delta = ln(n) / m in ln g, gives
 * omega_i ~ (Delta / pi) sqrt(g_i), scaled down if needed to be admissible.
 */
public final class BltOptimizer {

  /** Buffers of the production mechanism: McMahan et al. find 3 to 5 within a few percent of the optimum. */
  public static final int DEFAULT_BUFFERS = 4;

  private static final int ROUNDS = 4;
  private static final int MAX_EVALUATIONS_PER_ROUND = 4000;
  private static final double FIRST_STEP = 0.5;
  private static final double TOLERANCE = 1e-12;

  private record Key(long horizon, int buffers) {}

  private static final Map<Key, BltStrategy> CACHE = new ConcurrentHashMap<>();
  private static final int CACHE_LIMIT = 256;

  private BltOptimizer() {}

  /**
   * Empties the cache; only tests call it. Mutation testing hot-swaps one mutant after another into one JVM, and an
   * entry built under an earlier mutant would answer for the code under test: tests start from an empty cache.
   */
  static void clearForTests() {
    CACHE.clear();
  }

  /** The optimised strategy with {@link #DEFAULT_BUFFERS} buffers for horizon n (cached). */
  public static BltStrategy forHorizon(long horizon) {
    return forHorizon(horizon, DEFAULT_BUFFERS);
  }

  /** The optimised strategy with {@code buffers} buffers for horizon n &gt;= 1 (cached). */
  public static BltStrategy forHorizon(long horizon, int buffers) {
    if (horizon < 1) {
      throw new IllegalArgumentException("horizon must be at least 1, got " + horizon);
    }
    if (buffers < 1 || buffers > 8) {
      throw new IllegalArgumentException("buffers must be in [1, 8], got " + buffers);
    }
    Key key = new Key(horizon, buffers);
    BltStrategy cached = CACHE.get(key);
    if (cached != null) {
      return cached;
    }
    BltStrategy optimised = optimise(horizon, buffers);
    if (CACHE.size() >= CACHE_LIMIT) {
      CACHE.clear(); // recomputing is deterministic, so dropping entries changes nothing but time
    }
    CACHE.putIfAbsent(key, optimised);
    return optimised;
  }

  static BltStrategy optimise(long horizon, int buffers) {
    ToDoubleFunction<double[]> objective = x -> logMaxLoss(x, horizon);
    double[] best = start(horizon, buffers);
    double step = FIRST_STEP;
    for (int round = 0; round < ROUNDS; round++) {
      best = NelderMead.minimise(objective, best, step, MAX_EVALUATIONS_PER_ROUND, TOLERANCE);
      step /= 2;
    }
    return strategyOf(best);
  }

  /** The admissible starting point described in the class comment. */
  static double[] start(long horizon, int buffers) {
    double logN = StrictMath.log(Math.max(horizon, 2));
    double spacing = logN / buffers;
    double[] x = new double[2 * buffers];
    for (int i = 0; i < buffers; i++) {
      double logGap = -(i + 0.5) * spacing;
      x[i] = logGap;
      x[buffers + i] = StrictMath.log(spacing / Math.PI) + logGap / 2;
    }
    // Scale omega down (halving) until admissible: the score sum omega / theta must be below 1.
    while (!Double.isFinite(logMaxLoss(x, horizon))) {
      for (int i = 0; i < buffers; i++) {
        x[buffers + i] -= StrictMath.log(2);
      }
    }
    return x;
  }

  /** ln F(n) E(n) at x, or +infinity if x is not an admissible BLT. */
  static double logMaxLoss(double[] x, long horizon) {
    BltStrategy strategy = admissibleOrNull(x);
    if (strategy == null) {
      return Double.POSITIVE_INFINITY;
    }
    double loss = strategy.maxLoss(horizon);
    return loss > 0 && Double.isFinite(loss) ? StrictMath.log(loss) : Double.POSITIVE_INFINITY;
  }

  private static BltStrategy admissibleOrNull(double[] x) {
    int m = x.length / 2;
    double[] decays = new double[m];
    double[] scales = new double[m];
    double score = 0;
    for (int i = 0; i < m; i++) {
      double gap = StrictMath.exp(x[i]);
      if (!(gap >= BltStrategy.MIN_GAP_TO_ONE && gap < 1)) {
        return null;
      }
      decays[i] = 1 - gap;
      scales[i] = StrictMath.exp(x[m + i]);
      if (!(scales[i] > 0) || !Double.isFinite(scales[i])) {
        return null;
      }
      score += scales[i] / decays[i];
    }
    double[] sorted = decays.clone();
    Arrays.sort(sorted);
    for (int i = 1; i < m; i++) {
      // distinct, and far enough apart for the inverse's bisection to separate its roots
      if (sorted[i] - sorted[i - 1] <= 1e-9 * (1 - sorted[i - 1])) {
        return null;
      }
    }
    return score < 1 ? BltStrategy.of(decays, scales) : null;
  }

  private static BltStrategy strategyOf(double[] x) {
    BltStrategy strategy = admissibleOrNull(x);
    if (strategy == null) {
      throw new IllegalStateException("the BLT optimiser ended outside the admissible set; this is a bug");
    }
    return strategy;
  }

  /**
   * The Nelder-Mead simplex (reflection 1, expansion 2, contraction 1/2, shrink 1/2), deterministic: ties are
   * broken by position. Minimises a function that may be +infinity outside a region containing the start.
   */
  static final class NelderMead {

    private NelderMead() {}

    static double[] minimise(ToDoubleFunction<double[]> f, double[] start, double step, int maxEvaluations,
        double tolerance) {
      int n = start.length;
      double[][] points = new double[n + 1][];
      double[] values = new double[n + 1];
      points[0] = start.clone();
      values[0] = f.applyAsDouble(points[0]);
      for (int i = 0; i < n; i++) {
        points[i + 1] = start.clone();
        points[i + 1][i] += step;
        values[i + 1] = f.applyAsDouble(points[i + 1]);
      }
      int evaluations = n + 1;
      Integer[] order = new Integer[n + 1];
      while (evaluations < maxEvaluations) {
        for (int i = 0; i <= n; i++) {
          order[i] = i;
        }
        final double[] v = values;
        Arrays.sort(order, (a, b) -> {
          int byValue = Double.compare(v[a], v[b]);
          return byValue != 0 ? byValue : Integer.compare(a, b);
        });
        int best = order[0];
        int worst = order[n];
        int secondWorst = order[n - 1];
        if (Double.isFinite(values[worst]) && values[worst] - values[best] <= tolerance * (1 + Math.abs(values[best]))) {
          break;
        }
        double[] centroid = new double[n];
        for (int i = 0; i <= n; i++) {
          if (i != worst) {
            for (int j = 0; j < n; j++) {
              centroid[j] += points[i][j] / n;
            }
          }
        }
        double[] reflected = along(centroid, points[worst], -1);
        double reflectedValue = f.applyAsDouble(reflected);
        evaluations++;
        if (reflectedValue < values[best]) {
          double[] expanded = along(centroid, points[worst], -2);
          double expandedValue = f.applyAsDouble(expanded);
          evaluations++;
          if (expandedValue < reflectedValue) {
            points[worst] = expanded;
            values[worst] = expandedValue;
          } else {
            points[worst] = reflected;
            values[worst] = reflectedValue;
          }
        } else if (reflectedValue < values[secondWorst]) {
          points[worst] = reflected;
          values[worst] = reflectedValue;
        } else {
          boolean outside = reflectedValue < values[worst];
          double[] contracted = along(centroid, points[worst], outside ? -0.5 : 0.5);
          double contractedValue = f.applyAsDouble(contracted);
          evaluations++;
          if (contractedValue < Math.min(reflectedValue, values[worst])) {
            points[worst] = contracted;
            values[worst] = contractedValue;
          } else {
            for (int i = 0; i <= n; i++) {
              if (i != best) {
                points[i] = along(points[best], points[i], 0.5);
                values[i] = f.applyAsDouble(points[i]);
                evaluations++;
              }
            }
          }
        }
      }
      int best = 0;
      for (int i = 1; i <= n; i++) {
        if (values[i] < values[best]) {
          best = i;
        }
      }
      return points[best];
    }

    /** centroid + t (point - centroid). */
    private static double[] along(double[] centroid, double[] point, double t) {
      double[] result = new double[centroid.length];
      for (int j = 0; j < result.length; j++) {
        result[j] = centroid[j] + t * (point[j] - centroid[j]);
      }
      return result;
    }
  }
}
