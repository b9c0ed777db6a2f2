package org.dpstream.bench.bandit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class BanditSummaryTest {

  private static BanditRunResult result(BanditAlgorithm algorithm, int d, long seed, double regret) {
    return new BanditRunResult(new BanditRunSpec(algorithm, "synthetic", d, 2, 100, 1, 0.01, seed), regret, 0.5, 0.1,
        new double[] {regret}, algorithm.cliName());
  }

  @Test
  void regretIsAFractionOfRandomsInTheSameSetting() {
    List<BanditRunResult> random = List.of(result(BanditAlgorithm.RANDOM, 5, 1, 100), result(BanditAlgorithm.RANDOM, 5, 2, 300));
    List<BanditRunResult> linear = List.of(result(BanditAlgorithm.DPLINEAR, 5, 1, 50), result(BanditAlgorithm.DPLINEAR, 5, 2, 70));
    assertEquals("0.3000", BanditSummary.fractionOfRandom(linear, random));
    assertEquals("1.000", BanditSummary.fractionOfRandom(random, random));
    assertEquals("-", BanditSummary.fractionOfRandom(linear, null));
    assertEquals("-", BanditSummary.fractionOfRandom(linear, List.of(result(BanditAlgorithm.RANDOM, 5, 1, 0))));

    // Another setting (d = 7) has no random run: its row says "-", the d = 5 rows their fraction.
    String table = BanditSummary.render(List.of(random.get(0), random.get(1), linear.get(0), linear.get(1),
        result(BanditAlgorithm.GREEDY, 7, 1, 10)));
    String linearRow = table.lines().filter(l -> l.startsWith("dplinear")).findFirst().orElseThrow();
    String greedyRow = table.lines().filter(l -> l.startsWith("greedy")).findFirst().orElseThrow();
    assertTrue(linearRow.contains(" 0.3000 "), linearRow);
    assertTrue(greedyRow.contains(" - "), greedyRow);
  }
}
