package org.dpstream.bench.bandit;

import java.awt.Color;
import java.awt.Font;
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
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The PNG of cumulative regret against the round t (linear axes, like the paper's Figure 5.1): per
 * algorithm, the mean over seeds as a solid line and mean +- one sample standard deviation as dashed
 * lines of the same colour (the spread). At most {@value #POINTS} rounds are drawn per line.
 */
final class RegretPlot {

  static {
    // Rendering to a PNG needs no display.
    System.setProperty("java.awt.headless", "true");
  }

  static final String FILE_NAME = "cumulative_regret.png";
  private static final int POINTS = 250;
  private static final Color[] PALETTE = {
    new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd), new Color(0xff7f0e)
  };

  private RegretPlot() {}

  static Path write(Path directory, List<BanditRunResult> results) throws IOException {
    Path file = directory.resolve(FILE_NAME);
    try (OutputStream out = Files.newOutputStream(file)) {
      BitmapEncoder.saveBitmap(chart(results), out, BitmapEncoder.BitmapFormat.PNG);
    }
    return file;
  }

  static XYChart chart(List<BanditRunResult> results) {
    BanditRunSpec first = results.get(0).spec();
    XYChart chart = new XYChartBuilder().width(1000).height(650)
        .title("Cumulative regret, " + first.env() + ", d=" + first.d() + ", K=" + first.arms() + ", T="
            + first.horizon() + ", eps=" + Formats.parameter(first.epsilon()))
        .xAxisTitle("round t").yAxisTitle("cumulative regret (mean, dashed: +- 1 std over seeds)").build();
    Styler styler = chart.getStyler();
    ChartStyle.apply(styler, 18);
    chart.getStyler().setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 15));
    chart.getStyler().setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    chart.getStyler().setXAxisDecimalPattern("#,##0");

    Map<String, List<BanditRunResult>> byAlgorithm = new LinkedHashMap<>();
    for (BanditRunResult result : results) {
      byAlgorithm.computeIfAbsent(result.spec().algorithm().cliName(), k -> new ArrayList<>()).add(result);
    }
    int colour = 0;
    for (Map.Entry<String, List<BanditRunResult>> line : byAlgorithm.entrySet()) {
      Color color = PALETTE[colour++ % PALETTE.length];
      List<BanditRunResult> runs = line.getValue();
      int horizon = runs.get(0).regretByRound().length;
      int points = Math.min(POINTS, horizon);
      double[] x = new double[points];
      double[] mean = new double[points];
      double[] upper = new double[points];
      double[] lower = new double[points];
      for (int p = 0; p < points; p++) {
        int t = (int) Math.round((double) (p + 1) * horizon / points); // rounds 1..T, last is T
        double[] atT = runs.stream().mapToDouble(r -> r.regretByRound()[t - 1]).toArray();
        x[p] = t;
        mean[p] = Stats.mean(atT);
        double std = Stats.std(atT);
        upper[p] = mean[p] + std;
        lower[p] = mean[p] - std;
      }
      String name = line.getKey() + " (" + runs.size() + (runs.size() == 1 ? " seed)" : " seeds)");
      style(chart.addSeries(name, x, mean), color, SeriesLines.SOLID, true);
      style(chart.addSeries(name + " +1 std", x, upper), color, SeriesLines.DASH_DASH, false);
      style(chart.addSeries(name + " -1 std", x, lower), color, SeriesLines.DASH_DASH, false);
    }
    return chart;
  }

  private static void style(XYSeries series, Color color, java.awt.BasicStroke line, boolean inLegend) {
    series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
    series.setMarker(SeriesMarkers.NONE);
    series.setLineColor(color);
    series.setLineStyle(line);
    series.setShowInLegend(inLegend);
  }
}
