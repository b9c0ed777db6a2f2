package org.dpstream.demo;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The demo's PNG: test risk of each model's releases against the step (log x), with the risk of
 * theta = 0 of the same model as a dashed line of the same colour, the level a model must beat to have
 * learnt anything.
 */
final class RiskPlot {

  static {
    // Rendering to a PNG needs no display.
    System.setProperty("java.awt.headless", "true");
  }

  private static final Color[] PALETTE = {
    new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd), new Color(0xff7f0e)
  };
  private static final BasicStroke DASHED =
      new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f);

  /** A model's line: its name, mechanism and curve. */
  record Line(DemoModel model, String mechanism, List<RiskCurve.Point> curve, double riskAtZero) {}

  private RiskPlot() {}

  static void write(Path file, List<Line> lines, int testSetSize) throws IOException {
    XYChart chart = chart(lines, testSetSize);
    try (OutputStream out = Files.newOutputStream(file)) {
      BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
    }
  }

  static XYChart chart(List<Line> lines, int testSetSize) {
    XYChart chart = new XYChartBuilder()
        .width(1100).height(700)
        .title("dpstream demo: test risk of the released models (eps = " + PlainNumbers.of(DemoModel.EPSILON)
            + ", delta = " + String.format(Locale.ROOT, "%.0e", DemoModel.DELTA) + " per model)")
        .xAxisTitle("step t (samples consumed by the model)")
        .yAxisTitle("test risk (mean squared error, " + String.format(Locale.ROOT, "%,d", testSetSize) + " held-out points)")
        .build();
    XYStyler styler = chart.getStyler();
    ChartStyle.apply(styler);
    styler.setXAxisLogarithmic(true);
    styler.setYAxisLogarithmic(true);
    // Label intermediate ticks too: the risks may span less than a decade.
    styler.setYAxisLogarithmicDecadeOnly(false);
    styler.setXAxisDecimalPattern("#,##0");
    styler.setYAxisDecimalPattern("0.###");

    for (int i = 0; i < lines.size(); i++) {
      Line line = lines.get(i);
      if (line.curve().isEmpty()) {
        continue; // a model that never released: nothing to draw, the summary says so
      }
      Color color = PALETTE[i % PALETTE.length];
      double[] steps = line.curve().stream().mapToDouble(RiskCurve.Point::step).toArray();
      double[] risks = line.curve().stream().mapToDouble(RiskCurve.Point::risk).toArray();
      XYSeries released = chart.addSeries(
          line.model().id() + " (" + line.model().geometry() + "): " + withoutParameters(line.mechanism()), steps, risks);
      released.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
      released.setMarker(SeriesMarkers.NONE);
      released.setLineColor(color);
      released.setLineWidth(2.5f);

      double[] span = {steps[0], Math.max(steps[steps.length - 1], steps[0] + 1)};
      XYSeries zero = chart.addSeries(line.model().id() + ": risk at theta = 0", span,
          new double[] {line.riskAtZero(), line.riskAtZero()});
      zero.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
      zero.setMarker(SeriesMarkers.NONE);
      zero.setLineColor(color);
      zero.setLineStyle(DASHED);
    }
    return chart;
  }

  /** {@code dp-tofw/zcdp/gaussian(d=5, sigma=...)} as {@code dp-tofw/zcdp/gaussian}: the summary has the rest. */
  static String withoutParameters(String mechanism) {
    int parenthesis = mechanism.indexOf('(');
    return parenthesis < 0 ? mechanism : mechanism.substring(0, parenthesis);
  }
}
