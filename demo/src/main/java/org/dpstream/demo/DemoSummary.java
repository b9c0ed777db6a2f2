package org.dpstream.demo;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** The table printed at the end of the demo, one row per model, then the rejections and the plot. */
final class DemoSummary {

  /** One model's outcome. */
  record Row(DemoModel model, String mechanism, long finalStep, double finalRisk, double riskAtZero,
      double epsilonSpent, double epsilonBudget, long releases, long samplesSent, Map<String, Long> rejected) {}

  private DemoSummary() {}

  static void print(PrintWriter out, List<Row> rows, Map<String, Map<String, Long>> otherRejections,
      double streamSeconds, Path plot) {
    long samples = rows.stream().mapToLong(Row::finalStep).sum();
    out.printf(Locale.ROOT, "%nSummary: %,d samples learnt by %d models in %.1f s (%,.0f samples/s end to end)%n",
        samples, rows.size(), streamSeconds, samples / Math.max(streamSeconds, 1e-9));
    out.printf(Locale.ROOT, "%-9s %-11s %9s %9s %11s %10s %12s %9s %9s%n", "model", "geometry", "step",
        "sent", "test risk", "risk at 0", "eps spent", "releases", "rejected");
    for (Row row : rows) {
      out.printf(Locale.ROOT, "%-9s %-11s %,9d %,9d %11s %10.5f %12s %,9d %,9d%n",
          row.model().id(), row.model().geometry(), row.finalStep(), row.samplesSent(),
          Double.isNaN(row.finalRisk()) ? "-" : String.format(Locale.ROOT, "%.5f", row.finalRisk()),
          row.riskAtZero(),
          String.format(Locale.ROOT, "%.3f / %s", row.epsilonSpent(), PlainNumbers.of(row.epsilonBudget())),
          row.releases(), row.rejected().values().stream().mapToLong(Long::longValue).sum());
    }
    out.println("Mechanisms (release.algorithm):");
    for (Row row : rows) {
      out.printf("  %-9s %s%n", row.model().id(), row.mechanism());
    }
    if (rows.stream().anyMatch(row -> row.model().perPerson())) {
      out.println("Per person (privacyUnit: {by: user}):");
      for (Row row : rows) {
        if (row.model().perPerson()) {
          out.printf(Locale.ROOT, "  %-9s %s; %,d samples over the bound rejected%n", row.model().id(),
              row.model().personGuarantee(), row.rejected().getOrDefault(ModelProgress.CONTRIBUTION_LIMIT, 0L));
        }
      }
    }
    out.println("Rejected (dp.rejected, by key and reason):");
    boolean any = false;
    for (Row row : rows) {
      if (!row.rejected().isEmpty()) {
        out.printf("  %-15s %s%n", row.model().id(), reasons(row.rejected()));
        any = true;
      }
    }
    for (Map.Entry<String, Map<String, Long>> other : otherRejections.entrySet()) {
      out.printf("  %-15s %s%n", other.getKey(), reasons(other.getValue()));
      any = true;
    }
    if (!any) {
      out.println("  none");
    }
    out.println("Test risk over time: " + plot.toAbsolutePath().normalize());
    out.flush();
  }

  private static String reasons(Map<String, Long> byReason) {
    return byReason.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .map(e -> e.getKey() + " x" + e.getValue())
        .collect(Collectors.joining(", "));
  }
}
