package org.dpstream.demo;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeSet;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The demo's second PNG: cumulative regret of the bandit's decisions against uniformly random arms. */
final class RegretPlot {

  static {
    // Rendering to a PNG needs no display.
    System.setProperty("java.awt.headless", "true");
  }

  /** Minimum room per x tick label: enough for "10,000" in the tick font and a gap. */
  private static final int X_TICK_SPACING_PIXELS = 90;

  /** Points per curve: a few per pixel of a 1000-pixel-wide chart. */
  static final int POINTS = 2000;

  private RegretPlot() {}

  /**
   * @param regret cumulative regret after each decision, in decision order
   * @param randomRegret the same for uniformly random arms, one entry per decision
   */
  static void write(Path file, double[] regret, double[] randomRegret) throws IOException {
    try (OutputStream out = Files.newOutputStream(file)) {
      BitmapEncoder.saveBitmap(chart(regret, randomRegret), out, BitmapEncoder.BitmapFormat.PNG);
    }
  }

  static XYChart chart(double[] regret, double[] randomRegret) {
    XYChart chart = new XYChartBuilder().width(1000).height(650)
        .title("dpstream demo: cumulative regret of the bandit's decisions (DP-Linear, eps = "
            + PlainNumbers.of(DemoModel.EPSILON) + ")")
        .xAxisTitle("decision").yAxisTitle("cumulative regret").build();
    XYStyler styler = chart.getStyler();
    ChartStyle.apply(styler);
    styler.setXAxisMin(0.0);
    styler.setXAxisTickMarkSpacingHint(X_TICK_SPACING_PIXELS);
    styler.setXAxisDecimalPattern("#,##0");
    styler.setYAxisDecimalPattern("#,##0");
    if (regret.length > 0) {
      int[] decisions = plottedDecisions(regret.length);
      double[] x = new double[decisions.length];
      double[] dp = new double[decisions.length];
      double[] uniform = new double[decisions.length];
      for (int i = 0; i < decisions.length; i++) {
        x[i] = decisions[i];
        dp[i] = regret[decisions[i] - 1];
        uniform[i] = randomRegret[decisions[i] - 1];
      }
      chart.addSeries("DP-Linear via the service", x, dp).setMarker(SeriesMarkers.NONE);
      chart.addSeries("uniformly random arms", x, uniform).setMarker(SeriesMarkers.NONE);
    }
    return chart;
  }

  /**
   * The decisions (1-based, increasing, first and last included) at which the curves are drawn: at
   * most {@link #POINTS}, geometrically spaced, so every decision early on and wider steps later,
   * where the curve is long and straight. Not equally spaced on purpose: for
   * equally spaced x values XChart puts a tick label on every k-th value ("1", "668", "1,335", ...) and
   * those labels ran into each other; otherwise it picks round ticks that keep to the spacing hint.
   */
  static int[] plottedDecisions(int decisions) {
    TreeSet<Integer> chosen = new TreeSet<>();
    for (int i = 0; i < POINTS; i++) {
      chosen.add((int) Math.round(Math.pow(decisions, (double) i / (POINTS - 1))));
    }
    return chosen.stream().mapToInt(Integer::intValue).toArray();
  }
}
