package org.dpstream.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RegretPlotTest {

  @Test
  void everyDecisionEarlyOnThenAtMostThePointBudgetUpToTheLast() {
    for (int decisions : new int[] {1, 2, 37, 400, 9_713, 10_000, 1_000_000}) {
      int[] plotted = RegretPlot.plottedDecisions(decisions);
      assertEquals(1, plotted[0]);
      assertEquals(decisions, plotted[plotted.length - 1]);
      assertTrue(plotted.length <= RegretPlot.POINTS, decisions + ": " + plotted.length + " points");
      for (int i = 1; i < plotted.length; i++) {
        assertTrue(plotted[i] > plotted[i - 1], "increasing");
      }
      assertEquals(Math.min(decisions, 10), prefixLength(plotted), "every one of the first ten decisions");
    }
  }

  /** Equally spaced x values put XChart in the mode whose tick labels ran into each other. */
  @Test
  void longCurvesAreNotEquallySpaced() {
    for (int decisions : new int[] {400, 9_713, 10_000, 1_000_000}) {
      int[] plotted = RegretPlot.plottedDecisions(decisions);
      Set<Integer> gaps = new HashSet<>();
      for (int i = 1; i < plotted.length; i++) {
        gaps.add(plotted[i] - plotted[i - 1]);
      }
      assertNotEquals(1, gaps.size(), decisions + " decisions");
    }
  }

  private static int prefixLength(int[] plotted) {
    int n = 0;
    while (n < plotted.length && n < 10 && plotted[n] == n + 1) {
      n++;
    }
    return n;
  }
}
