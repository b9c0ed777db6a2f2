package org.dpstream.bench.ofw;

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
import org.dpstream.bench.common.Stats;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * One PNG per (p, d, T, epsilon) setting: SubOpt against the number of samples seen t (log axis), one
 * line per (algorithm, accountant, noise) = the mean over seeds at each checkpoint. A batch baseline only
 * has a final value; it is drawn as a single marker at t = T. The y axis is logarithmic when every
 * plotted value is positive, linear otherwise (SubOpt can dip below 0 near convergence).
 */
final class SubOptPlot {

  static {
    // Rendering to a PNG needs no display.
    System.setProperty("java.awt.headless", "true");
  }

  private SubOptPlot() {}

  /** Writes the PNGs into {@code directory} and returns their paths. */
  static List<Path> write(Path directory, List<RunResult> results) throws IOException {
    Map<SettingKey, Map<String, List<RunResult>>> bySetting = new LinkedHashMap<>();
    for (RunResult result : results) {
      String line = result.spec().algorithm().cliName() + " [" + result.accountant() + ", " + result.noise() + " noise]";
      bySetting.computeIfAbsent(SettingKey.of(result.spec()), k -> new LinkedHashMap<>())
          .computeIfAbsent(line, k -> new ArrayList<>()).add(result);
    }
    List<Path> written = new ArrayList<>();
    for (Map.Entry<SettingKey, Map<String, List<RunResult>>> setting : bySetting.entrySet()) {
      Path file = directory.resolve(setting.getKey().fileStem() + ".png");
      XYChart chart = chart(setting.getKey(), setting.getValue());
      try (OutputStream out = Files.newOutputStream(file)) {
        BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
      }
      written.add(file);
    }
    return written;
  }

  static XYChart chart(SettingKey setting, Map<String, List<RunResult>> lines) {
    XYChart chart = new XYChartBuilder()
        .width(1000).height(650)
        .title(setting.title())
        .xAxisTitle("t (samples seen)")
        .yAxisTitle("SubOpt on the test set (mean over seeds)")
        .build();
    Styler styler = chart.getStyler();
    ChartStyle.apply(styler, 18);
    styler.setMarkerSize(10);
    chart.getStyler().setXAxisLogarithmic(true);
    chart.getStyler().setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 15));
    chart.getStyler().setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));

    boolean allPositive = true;
    for (Map.Entry<String, List<RunResult>> line : lines.entrySet()) {
      List<RunResult> runs = line.getValue();
      String name = line.getKey() + ", " + runs.size() + (runs.size() == 1 ? " seed" : " seeds");
      double[] x;
      double[] y;
      XYSeries series;
      if (runs.get(0).spec().algorithm().online()) {
        int[] checkpoints = runs.get(0).checkpoints();
        x = new double[checkpoints.length];
        y = new double[checkpoints.length];
        for (int c = 0; c < checkpoints.length; c++) {
          x[c] = checkpoints[c];
          double[] atC = new double[runs.size()];
          for (int r = 0; r < runs.size(); r++) {
            atC[r] = runs.get(r).trajectory()[c];
          }
          y[c] = Stats.mean(atC);
        }
        series = chart.addSeries(name, x, y);
        series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        series.setMarker(SeriesMarkers.NONE);
      } else {
        x = new double[] {setting.horizon()};
        y = new double[] {Stats.mean(runs.stream().mapToDouble(RunResult::subopt).toArray())};
        series = chart.addSeries(name + " (batch, final)", x, y);
        series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        series.setMarker(SeriesMarkers.DIAMOND);
      }
      for (double v : y) {
        allPositive &= v > 0;
      }
    }
    chart.getStyler().setYAxisLogarithmic(allPositive);
    // Label intermediate ticks too: a log axis spanning less than a decade would otherwise show one label.
    chart.getStyler().setYAxisLogarithmicDecadeOnly(false);
    chart.getStyler().setXAxisDecimalPattern("#,##0");
    chart.getStyler().setYAxisDecimalPattern("0.###E0");
    return chart;
  }
}
