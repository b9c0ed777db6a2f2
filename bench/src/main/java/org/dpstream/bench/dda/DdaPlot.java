package org.dpstream.bench.dda;

import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.dpstream.bench.common.Formats;
import org.dpstream.bench.common.Stats;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The PNG of suboptimality over rounds: one line per (iota, epsilon), mean over seeds, log-log axes. */
final class DdaPlot {

  static {
    // Rendering to a PNG needs no display.
    System.setProperty("java.awt.headless", "true");
  }

  private DdaPlot() {}

  static Path write(Path directory, String title, List<DdaRunResult> results) throws IOException {
    XYChart chart = new XYChartBuilder().width(1000).height(650).title(title)
        .xAxisTitle("round t").yAxisTitle("F(avg model) - F* (mean over seeds)").build();
    Styler styler = chart.getStyler();
    styler.setChartBackgroundColor(Color.WHITE);
    styler.setLegendPosition(Styler.LegendPosition.OutsideS);
    chart.getStyler().setXAxisLogarithmic(true);
    boolean allPositive = true;
    Map<String, List<DdaRunResult>> lines = results.stream().collect(Collectors.groupingBy(
        r -> "iota=" + Formats.parameter(r.iota()) + ", eps=" + Formats.parameter(r.epsilon()), TreeMap::new, Collectors.toList()));
    for (Map.Entry<String, List<DdaRunResult>> line : lines.entrySet()) {
      List<DdaRunResult> runs = line.getValue();
      long[] rounds = runs.get(0).checkpointRounds();
      double[] x = new double[rounds.length];
      double[] y = new double[rounds.length];
      for (int c = 0; c < rounds.length; c++) {
        x[c] = rounds[c];
        final int k = c;
        y[c] = Stats.mean(runs.stream().mapToDouble(r -> r.trajectory()[k]).toArray());
        allPositive &= y[c] > 0;
      }
      XYSeries series = chart.addSeries(line.getKey() + " (" + runs.size() + " seeds)", x, y);
      series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
      series.setMarker(SeriesMarkers.NONE);
    }
    chart.getStyler().setYAxisLogarithmic(allPositive);
    chart.getStyler().setYAxisLogarithmicDecadeOnly(false);
    Path file = directory.resolve("suboptimality.png");
    try (OutputStream out = Files.newOutputStream(file)) {
      BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
    }
    return file;
  }
}
