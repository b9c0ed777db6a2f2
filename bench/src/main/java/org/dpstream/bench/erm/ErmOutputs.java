package org.dpstream.bench.erm;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpstream.bench.common.ChartStyle;
import org.dpstream.bench.common.Formats;
import org.dpstream.bench.common.Stats;
import org.dpstream.bench.common.TextTable;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** results.csv, trajectories.csv, relative_error.png and the summary of the erm command. */
final class ErmOutputs {

  static final String HEADER =
      "algorithm,data,loss,reg,epsilon,delta,seed,passes,relative_error,test_accuracy,seconds";

  static {
    System.setProperty("java.awt.headless", "true");
  }

  private ErmOutputs() {}

  static Path writeResults(Path dir, List<ErmRunResult> results) throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add(HEADER);
    for (ErmRunResult r : results) {
      lines.add(String.join(",", r.algorithm(), r.data(), r.loss(), r.reg(), Formats.parameter(r.epsilon()),
          Formats.measurement(r.delta()), Long.toString(r.seed()), Integer.toString(r.passes()),
          Formats.measurement(r.relativeError()), Formats.measurement(r.testAccuracy()),
          Formats.measurement(r.seconds())));
    }
    Path file = dir.resolve("results.csv");
    Files.write(file, lines);
    return file;
  }

  static Path writeTrajectories(Path dir, List<ErmRunResult> results) throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add("algorithm,epsilon,seed,pass,relative_error");
    for (ErmRunResult r : results) {
      for (int t = 0; t < r.relativeErrors().length; t++) {
        lines.add(String.join(",", r.algorithm(), Formats.parameter(r.epsilon()), Long.toString(r.seed()),
            Integer.toString(t), Formats.measurement(r.relativeErrors()[t])));
      }
    }
    Path file = dir.resolve("trajectories.csv");
    Files.write(file, lines);
    return file;
  }

  /** Lines by algorithm and epsilon, in order of first appearance. */
  static Map<String, List<ErmRunResult>> byLine(List<ErmRunResult> results, boolean severalEpsilons) {
    Map<String, List<ErmRunResult>> lines = new LinkedHashMap<>();
    for (ErmRunResult r : results) {
      String key = r.algorithm() + (severalEpsilons ? " eps=" + Formats.parameter(r.epsilon()) : "");
      lines.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
    }
    return lines;
  }

  /** Mean relative error over seeds against passes, one line per algorithm (and epsilon). */
  static Path writePlot(Path dir, String title, List<ErmRunResult> results, boolean severalEpsilons) throws IOException {
    XYChart chart = new XYChartBuilder().width(1000).height(650).title(title)
        .xAxisTitle("passes over the data").yAxisTitle("relative error (F(w) - F*) / (F(0) - F*), mean over seeds").build();
    Styler styler = chart.getStyler();
    ChartStyle.apply(styler, 16);
    boolean allPositive = true;
    for (Map.Entry<String, List<ErmRunResult>> line : byLine(results, severalEpsilons).entrySet()) {
      List<ErmRunResult> runs = line.getValue();
      int points = runs.get(0).relativeErrors().length;
      double[] x = new double[points];
      double[] y = new double[points];
      for (int t = 0; t < points; t++) {
        x[t] = t;
        double[] at = new double[runs.size()];
        for (int r = 0; r < runs.size(); r++) {
          at[r] = runs.get(r).relativeErrors()[t];
        }
        y[t] = Stats.mean(at);
        allPositive &= y[t] > 0 && Double.isFinite(y[t]);
        if (!Double.isFinite(y[t])) {
          y[t] = Double.NaN;
        }
      }
      XYSeries series = chart.addSeries(line.getKey() + " (" + runs.size() + " seeds)", x, y);
      series.setMarker(SeriesMarkers.NONE);
    }
    chart.getStyler().setYAxisLogarithmic(allPositive);
    chart.getStyler().setYAxisLogarithmicDecadeOnly(false);
    chart.getStyler().setYAxisDecimalPattern("0.###E0");
    Path file = dir.resolve("relative_error.png");
    try (OutputStream out = Files.newOutputStream(file)) {
      BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
    }
    return file;
  }

  /** The summary table: per algorithm (and epsilon) the final relative error and accuracy over seeds. */
  static String summary(List<ErmRunResult> results, boolean severalEpsilons) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"algorithm", "seeds", "rel.err mean", "std", "min", "max", "test acc", "seconds", "C",
        "step"});
    for (Map.Entry<String, List<ErmRunResult>> line : byLine(results, severalEpsilons).entrySet()) {
      List<ErmRunResult> runs = line.getValue();
      double[] errors = runs.stream().mapToDouble(ErmRunResult::relativeError).toArray();
      double[] accuracy = runs.stream().mapToDouble(ErmRunResult::testAccuracy).toArray();
      double[] seconds = runs.stream().mapToDouble(ErmRunResult::seconds).toArray();
      rows.add(new String[] {line.getKey(), Integer.toString(runs.size()), Formats.brief(Stats.mean(errors)),
          Formats.brief(Stats.std(errors)), Formats.brief(java.util.Arrays.stream(errors).min().orElseThrow()),
          Formats.brief(java.util.Arrays.stream(errors).max().orElseThrow()), Formats.brief(Stats.mean(accuracy)),
          Formats.brief(Stats.mean(seconds)), Formats.brief(runs.get(0).clip()), Formats.parameter(runs.get(0).stepScale())});
    }
    return TextTable.align(rows, c -> c == 0);
  }
}
