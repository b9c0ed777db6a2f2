package org.dpstream.core.privacy.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.commons.statistics.distribution.BinomialDistribution;
import org.junit.jupiter.api.Test;

/**
 * The exact one-sided bounds, against closed forms and the defining tail equations. Convention: each
 * bound is one-sided at level a; the auditor uses a = alpha / 2 for each of its two bounds.
 */
class ClopperPearsonTest {

  private static final double A = 0.025;

  /** No hits: the upper bound solves P[Bin(n, p) <= 0] = (1 - p)^n = a, so p = 1 - a^(1/n). */
  @Test
  void noHitsGiveZeroAndOneMinusRootOfLevel() {
    EventFrequency none = new EventFrequency(0, 20);

    assertEquals(0, ClopperPearson.lowerBound(none, A));
    assertEquals(1 - Math.pow(A, 1.0 / 20), ClopperPearson.upperBound(none, A), 1e-12);
  }

  /** All hits: the lower bound solves P[Bin(n, p) >= n] = p^n = a, so p = a^(1/n). */
  @Test
  void allHitsGiveRootOfLevelAndOne() {
    EventFrequency all = new EventFrequency(20, 20);

    assertEquals(Math.pow(A, 1.0 / 20), ClopperPearson.lowerBound(all, A), 1e-12);
    assertEquals(1, ClopperPearson.upperBound(all, A));
  }

  /** One hit: the lower bound solves P[Bin(n, p) >= 1] = 1 - (1 - p)^n = a, so p = 1 - (1 - a)^(1/n). */
  @Test
  void oneHitLowerBoundIsClosedForm() {
    assertEquals(1 - Math.pow(1 - A, 1.0 / 50),
        ClopperPearson.lowerBound(new EventFrequency(1, 50), A), 1e-12);
  }

  /** The classical two-sided 95% interval for 5 of 10, as printed by R's binom.test(5, 10). */
  @Test
  void fiveOfTenMatchesPublishedInterval() {
    EventFrequency half = new EventFrequency(5, 10);

    assertEquals(0.1870860, ClopperPearson.lowerBound(half, A), 5e-7);
    assertEquals(0.8129140, ClopperPearson.upperBound(half, A), 5e-7);
  }

  /** The defining equations P[X >= k | lower] = a and P[X <= k | upper] = a, at a rare event. */
  @Test
  void boundsSolveTheirTailEquations() {
    int runs = 100_000;
    int hits = 37;
    double level = 5e-4;
    EventFrequency rare = new EventFrequency(hits, runs);

    double lower = ClopperPearson.lowerBound(rare, level);
    double upper = ClopperPearson.upperBound(rare, level);

    assertEquals(level, BinomialDistribution.of(runs, lower).survivalProbability(hits - 1), 1e-9);
    assertEquals(level, BinomialDistribution.of(runs, upper).cumulativeProbability(hits), 1e-9);
  }

  @Test
  void rejectsLevelsOutsideTheUnitInterval() {
    EventFrequency half = new EventFrequency(5, 10);

    assertThrows(IllegalArgumentException.class, () -> ClopperPearson.lowerBound(half, 0));
    assertThrows(IllegalArgumentException.class, () -> ClopperPearson.upperBound(half, 1));
  }
}
