package org.dpstream.core.privacy.factorization;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class BltOptimizerTest {

  /**
   * The optimised BLT's max loss F(n) E(n) is within 1% of the square root's F_sqrt(n)^2 (the square root is
   * within about 1% of the best Toeplitz factorization for max error; McMahan et al. 2024 report BLTs with a
   * few buffers as close), and far below where the optimiser started.
   */
  @ParameterizedTest
  @ValueSource(longs = {2, 10, 100, 1000, 10_000, 100_000})
  void maxLossIsWithinOnePercentOfTheSquareRoots(long horizon, TestReporter reporter) {
    BltStrategy strategy = BltOptimizer.forHorizon(horizon);
    double sqrt = PrefixSumSquareRoot.squaredColumnNorm(horizon);
    double ratio = strategy.maxLoss(horizon) / (sqrt * sqrt);
    reporter.publishEntry("n=" + horizon, String.format(Locale.ROOT, "blt/sqrt max loss %.5f, %s", ratio, strategy));
    assertTrue(ratio < 1.012, () -> "ratio " + ratio);
    double started = Math.exp(BltOptimizer.logMaxLoss(BltOptimizer.start(horizon, BltOptimizer.DEFAULT_BUFFERS), horizon));
    assertTrue(strategy.maxLoss(horizon) <= started, "the optimiser never ends above its start");
  }

  /** The same horizon gives the same bits, computed afresh or cached. */
  @Test
  void deterministicAndCached() {
    BltStrategy cached = BltOptimizer.forHorizon(1234);
    assertSame(cached, BltOptimizer.forHorizon(1234));
    BltStrategy fresh = BltOptimizer.optimise(1234, BltOptimizer.DEFAULT_BUFFERS);
    assertTrue(Arrays.equals(cached.decays(), fresh.decays()) && Arrays.equals(cached.scales(), fresh.scales()));
  }

  /**
   * Reproducibility across machines: the parameters for n = 10^4 are pinned to their bits as first computed
   * (IEEE arithmetic and StrictMath are the same on every JVM). If this fails after a deliberate change of the
   * optimiser, state of running BLT models no longer resumes bit-identically: say so in the change.
   */
  @Test
  void parametersForTenThousandStepsArePinned() {
    BltStrategy strategy = BltOptimizer.forHorizon(10_000);
    assertEquals(PINNED_HASH, Arrays.hashCode(strategy.decays()) * 31 + Arrays.hashCode(strategy.scales()),
        strategy::toString);
  }

  private static final int PINNED_HASH = 251834176;

  /**
   * The same pin for other horizons and buffer counts, as first computed: short horizons and few buffers take the
   * simplex through inadmissible points (+infinity) and ties, where the tie-breaking rules decide the bits.
   */
  @ParameterizedTest
  @CsvSource({"2, 1, -417957330", "3, 2, 1705024551", "10, 2, -1220920540", "100, 3, -361554347",
      "1000, 4, 906028891"})
  void parametersOfOtherHorizonsAndBuffersArePinned(long horizon, int buffers, int pinnedHash) {
    BltStrategy strategy = BltOptimizer.forHorizon(horizon, buffers);
    assertEquals(buffers, strategy.buffers());
    assertEquals(pinnedHash, Arrays.hashCode(strategy.decays()) * 31 + Arrays.hashCode(strategy.scales()),
        strategy::toString);
  }

  @Test
  void horizonsAndBufferCountsOutsideTheirRangeAreRefused() {
    IllegalArgumentException noHorizon =
        assertThrows(IllegalArgumentException.class, () -> BltOptimizer.forHorizon(0));
    assertEquals("horizon must be at least 1, got 0", noHorizon.getMessage());
    assertThrows(IllegalArgumentException.class, () -> BltOptimizer.forHorizon(10, 0));
    assertThrows(IllegalArgumentException.class, () -> BltOptimizer.forHorizon(10, 9));
    // the ends of the ranges are admitted (one step: every strategy has loss 1, so the simplex stops at once)
    assertEquals(1, BltOptimizer.forHorizon(1, 1).buffers());
    assertEquals(8, BltOptimizer.forHorizon(1, 8).buffers());
  }

  /**
   * The objective at x = (ln(1 - theta_i), ln omega_i): ln F(n) E(n) of the BLT for admissible points, in any order of
   * the decays; +infinity (never an exception, which would end the search) for every inadmissible one.
   */
  @Test
  void theObjectiveScoresInadmissiblePointsInfinite() {
    double half = Math.log(0.5);
    double small = Math.log(0.01);
    double expected = Math.log(BltStrategy.of(new double[] {0.5, 0.9}, new double[] {0.01, 0.01}).maxLoss(10));
    assertEquals(expected, BltOptimizer.logMaxLoss(new double[] {half, Math.log(0.1), small, small}, 10), 1e-15);
    assertEquals(expected, BltOptimizer.logMaxLoss(new double[] {Math.log(0.1), half, small, small}, 10), 1e-15,
        "decays in descending order");
    // decays 1e-9 apart at theta = 1/2 are far enough for the inverse's bisection (the limit is 1e-9 (1 - theta))
    assertTrue(Double.isFinite(BltOptimizer.logMaxLoss(new double[] {half, Math.log(0.5 - 1e-9), small, small}, 10)));
    double[][] inadmissible = {
        {half, Math.log(0.5 - 4e-10), small, small}, // decays closer than 1e-9 (1 - theta)
        {half, half, small, small}, // equal decays
        {half, half}, // omega / theta = 1 exactly (exp(ln 1/2) is 1/2)
        {0, small}, // 1 - theta = 1: theta = 0
        {half, -800}, // omega underflows to 0
    };
    for (double[] x : inadmissible) {
      assertEquals(Double.POSITIVE_INFINITY, BltOptimizer.logMaxLoss(x, 10), () -> Arrays.toString(x));
    }
  }

  /** The simplex alone: a bowl's minimum (1, -2, 1/2) from a start far off, to the precision its tolerance allows. */
  @Test
  void nelderMeadFindsTheMinimumOfABowl() {
    double[] minimum = BltOptimizer.NelderMead.minimise(
        x -> square(x[0] - 1) + 2 * square(x[1] + 2) + 3 * square(x[2] - 0.5), new double[] {4, 4, 4}, 0.5, 4000,
        1e-15);
    assertArrayEquals(new double[] {1, -2, 0.5}, minimum, 1e-6);
  }

  /** +infinity where x_0 &gt; 0, as inadmissible BLTs score: the bowl around (1, 1) is minimised on the edge, (0, 1). */
  @Test
  void nelderMeadStaysWhereTheFunctionIsFinite() {
    double[] minimum = BltOptimizer.NelderMead.minimise(
        x -> x[0] > 0 ? Double.POSITIVE_INFINITY : square(x[0] - 1) + square(x[1] - 1), new double[] {-3, -3}, 0.5,
        4000, 1e-15);
    assertTrue(minimum[0] <= 0, () -> Arrays.toString(minimum));
    assertArrayEquals(new double[] {0, 1}, minimum, 1e-6);
  }

  /**
   * The evaluation budget: the first simplex costs n + 1 calls, so a budget of n + 1 returns its best vertex (here
   * the start; every step of +1/2 goes uphill) without a step; a larger budget is overrun by at most one iteration
   * (reflection, contraction and n shrink evaluations).
   */
  @Test
  void nelderMeadKeepsToItsEvaluationBudget() {
    int[] calls = {0};
    ToDoubleFunction<double[]> bowl = x -> {
      calls[0]++;
      return square(x[0] - 1) + 2 * square(x[1] + 2) + 3 * square(x[2] - 0.5);
    };
    assertArrayEquals(new double[] {4, 4, 4},
        BltOptimizer.NelderMead.minimise(bowl, new double[] {4, 4, 4}, 0.5, 4, 0));
    assertEquals(4, calls[0]);
    calls[0] = 0;
    BltOptimizer.NelderMead.minimise(bowl, new double[] {4, 4, 4}, 0.5, 100, 0);
    assertTrue(calls[0] >= 100 && calls[0] <= 99 + 2 + 3, "calls " + calls[0]);
  }

  /** A flat function has converged at the first simplex: no step is taken, and the tie goes to the first vertex. */
  @Test
  void nelderMeadStopsAtOnceOnAFlatFunctionAndReturnsTheStart() {
    int[] calls = {0};
    double[] minimum = BltOptimizer.NelderMead.minimise(x -> {
      calls[0]++;
      return 1;
    }, new double[] {1, 2}, 0.5, 1000, 0);
    assertArrayEquals(new double[] {1, 2}, minimum);
    assertEquals(3, calls[0]);
  }

  private static double square(double x) {
    return x * x;
  }
}
