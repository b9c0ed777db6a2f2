package org.dpstream.bench.ofw;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.dpstream.bench.common.Formats;
import org.dpstream.bench.common.Stats;
import org.dpstream.bench.common.TextTable;

/**
 * The table printed at the end: per (algorithm, accountant, noise, p, d, T, epsilon, delta), the number of
 * seeds, mean and sample standard deviation of risk and SubOpt, mean training seconds, the largest
 * privacy loss any seed's ledger recorded, and the mechanism string(s) the estimator reported.
 */
final class SummaryTable {

  private static final String[] HEADER = {
    "algorithm", "accountant", "noise", "p", "d", "T", "epsilon", "delta", "seeds", "risk mean", "risk std",
    "subopt mean", "subopt std", "seconds", "spent (eps, delta)", "mechanism"
  };

  private SummaryTable() {}

  static String render(List<RunResult> results) {
    Map<String, List<RunResult>> groups = new LinkedHashMap<>();
    for (RunResult result : results) {
      RunSpec run = result.spec();
      String key = String.join("|", run.algorithm().cliName(), result.accountant(), result.noise(), Formats.parameter(run.p()),
          Integer.toString(run.d()), Integer.toString(run.horizon()), Formats.parameter(run.epsilon()),
          Formats.parameter(run.delta()));
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(result);
    }
    List<String[]> rows = new ArrayList<>();
    rows.add(HEADER);
    for (List<RunResult> group : groups.values()) {
      rows.add(row(group));
    }
    return align(rows);
  }

  private static String[] row(List<RunResult> group) {
    RunResult first = group.get(0);
    RunSpec run = first.spec();
    double[] risk = group.stream().mapToDouble(RunResult::risk).toArray();
    double[] subopt = group.stream().mapToDouble(RunResult::subopt).toArray();
    double[] seconds = group.stream().mapToDouble(RunResult::seconds).toArray();
    double spentEpsilon = group.stream().mapToDouble(RunResult::spentEpsilon).max().orElseThrow();
    double spentDelta = group.stream().mapToDouble(RunResult::spentDelta).max().orElseThrow();
    LinkedHashSet<String> mechanisms = new LinkedHashSet<>();
    group.forEach(r -> mechanisms.add(r.mechanism()));
    return new String[] {
      run.algorithm().cliName(), first.accountant(), first.noise(), Formats.parameter(run.p()), Integer.toString(run.d()),
      Integer.toString(run.horizon()), Formats.parameter(run.epsilon()), Formats.parameter(run.delta()),
      Integer.toString(group.size()),
      Formats.brief(Stats.mean(risk)), Formats.brief(Stats.std(risk)),
      Formats.brief(Stats.mean(subopt)), Formats.brief(Stats.std(subopt)),
      Formats.brief(Stats.mean(seconds)),
      "(" + Formats.brief(spentEpsilon) + ", " + Formats.brief(spentDelta) + ")",
      String.join("; ", mechanisms)
    };
  }

  private static String align(List<String[]> rows) {
    // Text columns left-aligned, numbers right-aligned.
    int columns = HEADER.length;
    return TextTable.align(rows, c -> c <= 2 || c >= columns - 2);
  }
}
