package org.dpstream.core.privacy.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

/**
 * The one-run bound against values computed independently: the p-values and bounds below were computed with SciPy 1.17
 * ({@code scipy.stats.binom}) following the paper's Appendix D, with a 60-step bisection; the case v = r, delta = 0 has
 * the closed form eps = logit(beta^(1/r)).
 */
class OneRunAuditTest {

  @Test
  void pValuesAgreeWithAnIndependentComputation() {
    assertEquals(8.412885614385305e-4, OneRunAudit.pValue(1000, 100, 90, 1.0, 1e-5), 1e-12);
    assertEquals(0.38450513197497765, OneRunAudit.pValue(1000, 100, 75, 1.0, 1e-5), 1e-10);
    assertEquals(0.38272186725513024, OneRunAudit.pValue(1000, 100, 75, 1.0, 0), 1e-10);
    assertEquals(0.10484420675509244, OneRunAudit.pValue(2000, 200, 190, 2.5, 1e-5), 1e-10);
  }

  @Test
  void boundsAgreeWithAnIndependentComputation() {
    OneRunAudit audit = OneRunAudit.of(1e-5, 0.05);
    assertEquals(1.6261434806957262, audit.epsilonLowerBound(1000, 100, 90), 1e-5);
    assertEquals(2.4922872338961346, audit.epsilonLowerBound(1000, 100, 97), 1e-5);
    assertEquals(1.2507917813475522, audit.epsilonLowerBound(10000, 1000, 800), 1e-5);
    assertEquals(0.8199729121699937, audit.epsilonLowerBound(1000, 200, 150), 1e-5);
    assertEquals(0.8213962430643406, OneRunAudit.of(0, 0.05).epsilonLowerBound(1000, 200, 150), 1e-5);
  }

  @Test
  void everyGuessRightWithoutDeltaIsTheClosedForm() {
    for (int r : new int[] {1, 10, 100, 1000}) {
      double p = Math.pow(0.05, 1.0 / r);
      double closedForm = Math.log(p / (1 - p));
      assertEquals(Math.max(0, closedForm), OneRunAudit.of(0, 0.05).epsilonLowerBound(r, r, r), 1e-5, "r = " + r);
    }
  }

  @Test
  void halfTheGuessesRightBoundsNothingAndBadCountsAreRefused() {
    assertEquals(0, OneRunAudit.of(1e-5, 0.05).epsilonLowerBound(1000, 100, 50));
    assertThrows(IllegalArgumentException.class, () -> OneRunAudit.pValue(10, 11, 5, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> OneRunAudit.pValue(10, 5, 6, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> OneRunAudit.pValue(10, 5, 3, -1, 0));
  }

  /** Against SciPy: tau by brentq on norm.sf, then 0.5 norm.sf((tau + c) / sigma) / q. */
  @Test
  void theGaussianWrongGuessRateAgreesWithAnIndependentComputation() {
    assertEquals(0.005108754799194299, OneRunAudit.gaussianWrongGuessRate(1, 1, 0.05), 1e-9);
    assertEquals(0.011961197357373861, OneRunAudit.gaussianWrongGuessRate(0.2, 0.2288, 0.05), 1e-9);
    // every guess right but 4 sd of Binomial(100, 0.01) = 3.98 more wrong ones, plus the 1 expected: 95 right
    assertEquals(OneRunAudit.of(1e-5, 0.05).epsilonLowerBound(1000, 100, 95),
        OneRunAudit.of(1e-5, 0.05).pessimisticBound(1000, 100, 0.01, 4));
  }

  @Test
  void guessesTakeTheHighestAsIncludedAndTheLowestAsExcluded() {
    double[] scores = {0.5, -3, 2, 7, -1, 0};
    boolean[] included = {true, false, false, true, true, false};
    // top two: 7 (in, right) and 2 (out, wrong); bottom two: -3 (out, right), -1 (in, wrong)
    OneRunAudit.Result result = OneRunAudit.of(0, 0.05).guess(scores, included, 2, 2);
    assertEquals(4, result.guesses());
    assertEquals(2, result.correct());
    assertEquals(6, result.canaries());
    assertThrows(IllegalArgumentException.class,
        () -> OneRunAudit.of(0, 0.05).guess(new double[] {Double.NaN}, new boolean[] {true}, 1, 0));
  }

  /**
   * An exactly eps-DP run (randomized response at eps = 1 on each coin, guessing every canary) gives a bound below 1,
   * and randomized response at eps = 3 one above 1: the bound is neither blind nor too eager on a mechanism whose
   * epsilon is known. With m = 2000, W ~ Binomial(2000, 0.953) at eps = 3, 4 standard deviations below the mean
   * (1906 - 38 = 1868 correct) the bound is still above 2.3.
   */
  @Test
  void randomizedResponseIsBoundedBelowItsEpsilonAndAboveASmallerOne() {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(11L);
    int m = 2000;
    OneRunAudit audit = OneRunAudit.of(0, 0.05);
    assertTrue(audit.epsilonLowerBound(m, m, 1868) > 2.3);
    for (double eps : new double[] {1, 3}) {
      boolean[] coins = new boolean[m];
      double[] scores = new double[m];
      double truth = 1 / (1 + Math.exp(-eps));
      for (int i = 0; i < m; i++) {
        coins[i] = rng.nextBoolean();
        boolean reported = rng.nextDouble() < truth ? coins[i] : !coins[i];
        scores[i] = (reported ? 1 : -1) + 1e-9 * rng.nextDouble();
      }
      int plus = 0;
      for (double s : scores) {
        plus += s > 0 ? 1 : 0;
      }
      OneRunAudit.Result result = audit.guess(scores, coins, plus, m - plus);
      assertTrue(result.epsilonLowerBound() <= eps, result.toString());
      if (eps == 3) {
        assertTrue(result.epsilonLowerBound() > 1, result.toString());
      }
    }
  }
}
