package org.dpstream.bench.bandit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.dpstream.bench.common.Formats;
import org.dpstream.bench.common.Stats;
import org.dpstream.bench.common.TextTable;

/**
 * The table printed (and written to {@code summary.txt}) at the end: per algorithm and setting, the
 * number of seeds, mean and sample standard deviation of Regret(T), the mean regret as a fraction of
 * {@code random}'s in the same setting (when random ran), the mean accuracy of the chosen
 * arms (fraction of optimal choices), mean policy seconds and the policy's calibration.
 */
final class BanditSummary {

  static final String FILE_NAME = "summary.txt";

  private static final String[] HEADER = {
    "algorithm", "env", "d", "K", "T", "epsilon", "delta", "seeds", "regret mean", "regret std", "vs random", "accuracy",
    "seconds", "mechanism"
  };

  private BanditSummary() {}

  static String render(List<BanditRunResult> results) {
    Map<String, List<BanditRunResult>> groups = new LinkedHashMap<>();
    Map<String, List<BanditRunResult>> randomBySetting = new LinkedHashMap<>();
    for (BanditRunResult result : results) {
      BanditRunSpec run = result.spec();
      groups.computeIfAbsent(run.algorithm().cliName() + "|" + setting(run), k -> new ArrayList<>()).add(result);
      if (run.algorithm() == BanditAlgorithm.RANDOM) {
        randomBySetting.computeIfAbsent(setting(run), k -> new ArrayList<>()).add(result);
      }
    }
    List<String[]> rows = new ArrayList<>();
    rows.add(HEADER);
    for (List<BanditRunResult> group : groups.values()) {
      rows.add(row(group, randomBySetting.get(setting(group.get(0).spec()))));
    }
    return TextTable.align(rows, c -> c <= 1 || c == HEADER.length - 1);
  }

  private static String setting(BanditRunSpec run) {
    return run.env() + "|" + run.d() + "|" + run.arms() + "|" + run.horizon() + "|" + run.epsilon() + "|" + run.delta();
  }

  /** Mean regret over mean regret of {@code random} in the same setting (same seeds), or "-" without it. */
  static String fractionOfRandom(List<BanditRunResult> group, List<BanditRunResult> random) {
    if (random == null) {
      return "-";
    }
    double randomMean = Stats.mean(random.stream().mapToDouble(BanditRunResult::cumulativeRegret).toArray());
    double mean = Stats.mean(group.stream().mapToDouble(BanditRunResult::cumulativeRegret).toArray());
    return randomMean > 0 ? Formats.brief(mean / randomMean) : "-";
  }

  private static String[] row(List<BanditRunResult> group, List<BanditRunResult> random) {
    BanditRunSpec run = group.get(0).spec();
    double[] regret = group.stream().mapToDouble(BanditRunResult::cumulativeRegret).toArray();
    double[] accuracy = group.stream().mapToDouble(BanditRunResult::accuracy).toArray();
    double[] seconds = group.stream().mapToDouble(BanditRunResult::seconds).toArray();
    LinkedHashSet<String> mechanisms = new LinkedHashSet<>();
    group.forEach(r -> mechanisms.add(r.mechanism()));
    return new String[] {
      run.algorithm().cliName(), run.env(), Integer.toString(run.d()), Integer.toString(run.arms()),
      Integer.toString(run.horizon()), Formats.parameter(run.epsilon()), Formats.parameter(run.delta()),
      Integer.toString(group.size()), Formats.brief(Stats.mean(regret)), Formats.brief(Stats.std(regret)),
      fractionOfRandom(group, random), Formats.brief(Stats.mean(accuracy)), Formats.brief(Stats.mean(seconds)), String.join("; ", mechanisms)
    };
  }
}
