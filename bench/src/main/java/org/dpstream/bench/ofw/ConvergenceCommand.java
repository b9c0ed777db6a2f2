package org.dpstream.bench.ofw;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpstream.options.OptionChecks;
import org.dpstream.options.OutputDirectoryOption;
import org.dpstream.options.ProgressBar;
import org.dpstream.bench.common.Formats;
import org.dpstream.bench.common.Stats;
import org.dpstream.bench.common.TextTable;
import org.dpstream.core.online.AccountantChoice;
import org.dpstream.core.online.IncrementClipping;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dpstream-bench ofw-convergence}: what more privacy budget buys. For each (p, d) it runs OFW with the
 * service's defaults at every epsilon and the unclipped estimator (worst-case clipping, zCDP tree) at a
 * non-binding epsilon, the floor the defaults should approach; prints SubOpt against epsilon next to the floor and
 * renders one PNG per T.
 */
@Command(
    name = "ofw-convergence",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "SubOpt of OFW with the service's defaults against epsilon, next to the floor of the unclipped estimator"
          + " (worst-case clipping, zCDP tree, --floor-epsilon), on the synthetic regression of Han et al.",
      "Writes DIR/results.csv (every run) and DIR/convergence_T<T>.png; prints the table."
    },
    footer = {"", "Example: ofw-convergence --p 1.5,inf --d 5,20 --T 10000 --seeds 10 --out /tmp/convergence"})
public final class ConvergenceCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--p", split = ",", paramLabel = "P", converter = OfwExperimentCommand.ExponentConverter.class,
      defaultValue = "1.5", description = "Exponent(s) p > 1, or inf. Default: ${DEFAULT-VALUE}.")
  List<Double> p;

  @Option(names = "--d", split = ",", paramLabel = "D", defaultValue = "5", description = "Dimension(s). Default: ${DEFAULT-VALUE}.")
  List<Integer> d;

  @Option(names = "--T", paramLabel = "T", defaultValue = "10000", description = "Stream length. Default: ${DEFAULT-VALUE}.")
  int horizon;

  @Option(names = "--seeds", paramLabel = "N", defaultValue = "10", description = "Seeds 1..N. Default: ${DEFAULT-VALUE}.")
  int seeds;

  @Option(names = "--epsilon", split = ",", paramLabel = "EPS", defaultValue = "1,4,16,1000000",
      description = "Epsilons of the default estimator. Default: ${DEFAULT-VALUE}.")
  List<Double> epsilons;

  @Option(names = "--floor-epsilon", paramLabel = "EPS", defaultValue = "1000000",
      description = "Epsilon of the unclipped floor's run (large: its noise is negligible). Default: ${DEFAULT-VALUE}.")
  double floorEpsilon;

  @Option(names = "--delta", paramLabel = "DELTA", defaultValue = "1e-4", description = "Delta. Default: ${DEFAULT-VALUE}.")
  double delta;

  @Mixin OutputDirectoryOption output;

  /** One (p, d) row of results: the default's SubOpt per epsilon and the floor's. */
  record Row(double p, int d, Map<Double, double[]> byEpsilon, double[] floor) {}

  @Override
  public Integer call() throws IOException {
    OptionChecks.require(spec, horizon >= 4, "--T: need at least 4 (a warm-up block and another), got " + horizon);
    OptionChecks.require(spec, seeds >= 1, "--seeds: need at least one seed, got " + seeds);
    OptionChecks.require(spec, p.stream().allMatch(v -> v > 1), "--p: DP-TOFW only (p > 1)");
    OptionChecks.require(spec, delta > 0 && delta < 1, "--delta: must be in (0, 1), got " + delta);
    for (double e : epsilons) {
      OptionChecks.require(spec, e > 0 && Double.isFinite(e), "--epsilon: must be > 0, got " + e);
    }
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter stderr = spec.commandLine().getErr();
    Path out = output.create();
    List<Double> eps = new ArrayList<>(new LinkedHashSet<>(epsilons));
    ExperimentRunner defaults = new ExperimentRunner(2, IncrementClipping.ADAPTIVE, 1);
    ExperimentRunner unclipped = new ExperimentRunner(2, IncrementClipping.WORST_CASE, 1);
    int total = p.size() * d.size() * seeds * (eps.size() + 1);
    stderr.println("ofw-convergence: " + total + " runs into " + out.toAbsolutePath()
        + " (noise keys from the fixed experiment secret: reproducible, not for real data)");
    ProgressBar progress = ProgressBar.forStream(stderr, total);
    List<Row> rows = new ArrayList<>();
    List<RunResult> all = new ArrayList<>();
    for (double pValue : new LinkedHashSet<>(p)) {
      for (int dValue : new LinkedHashSet<>(d)) {
        Map<Double, double[]> byEpsilon = new LinkedHashMap<>();
        eps.forEach(e -> byEpsilon.put(e, new double[seeds]));
        double[] floor = new double[seeds];
        for (int seed = 1; seed <= seeds; seed++) {
          RegressionDataset data = RegressionDataset.generate(pValue, dValue, horizon, RegressionDataset.PAPER_TEST_SIZE, seed);
          for (double e : eps) {
            RunSpec run = new RunSpec(Algorithm.OFW, AccountantChoice.AUTO, pValue, dValue, horizon, e, delta, seed);
            RunResult result = defaults.run(run, data);
            byEpsilon.get(e)[seed - 1] = result.subopt();
            all.add(result);
            progress.advance(run.label());
          }
          RunSpec floorRun = new RunSpec(Algorithm.OFW, AccountantChoice.ZCDP, pValue, dValue, horizon, floorEpsilon,
              delta, seed);
          RunResult result = unclipped.run(floorRun, data);
          floor[seed - 1] = result.subopt();
          all.add(result);
          progress.advance("floor " + floorRun.label());
        }
        rows.add(new Row(pValue, dValue, byEpsilon, floor));
      }
    }
    Path csv = ResultsCsv.write(out, all);
    Path png = out.resolve("convergence_T" + horizon + ".png");
    try (OutputStream stream = Files.newOutputStream(png)) {
      BitmapEncoder.saveBitmap(chart(rows, eps), stream, BitmapEncoder.BitmapFormat.PNG);
    }
    stdout.println();
    stdout.print(table(rows, eps));
    stdout.println();
    stdout.println("defaults: accountant auto, discrete noise, adaptive clipping (balanced threshold), (eps, " + delta
        + ")-DP; floor: worst-case clipping (nothing clipped for data within the declared bounds), accountant zcdp,"
        + " discrete noise, eps = " + Formats.parameter(floorEpsilon) + "; T = " + horizon + ", " + seeds
        + " seeds, mean +- standard deviation.");
    stdout.println("wrote " + csv + " and " + png);
    stdout.flush();
    return 0;
  }

  static String table(List<Row> rows, List<Double> eps) {
    List<String[]> lines = new ArrayList<>();
    List<String> header = new ArrayList<>(List.of("p", "d"));
    eps.forEach(e -> header.add("eps=" + Formats.parameter(e)));
    header.add("floor (unclipped)");
    header.add("last / floor");
    lines.add(header.toArray(String[]::new));
    for (Row row : rows) {
      List<String> cells = new ArrayList<>(List.of(Formats.parameter(row.p()), Integer.toString(row.d())));
      for (double e : eps) {
        double[] values = row.byEpsilon().get(e);
        cells.add(Formats.brief(Stats.mean(values)) + " +- " + Formats.brief(Stats.std(values)));
      }
      cells.add(Formats.brief(Stats.mean(row.floor())) + " +- " + Formats.brief(Stats.std(row.floor())));
      double last = Stats.mean(row.byEpsilon().get(eps.get(eps.size() - 1)));
      cells.add(Formats.brief(last / Stats.mean(row.floor())));
      lines.add(cells.toArray(String[]::new));
    }
    return TextTable.align(lines, c -> false);
  }

  static XYChart chart(List<Row> rows, List<Double> eps) {
    System.setProperty("java.awt.headless", "true");
    XYChart chart = new XYChartBuilder().width(1000).height(650)
        .title("SubOpt against epsilon: service defaults and the unclipped floor")
        .xAxisTitle("epsilon").yAxisTitle("SubOpt on the test set (mean over seeds)").build();
    Styler styler = chart.getStyler();
    styler.setChartBackgroundColor(java.awt.Color.WHITE);
    styler.setLegendPosition(Styler.LegendPosition.OutsideS);
    chart.getStyler().setXAxisLogarithmic(true);
    boolean allPositive = true;
    double[] x = eps.stream().mapToDouble(Double::doubleValue).toArray();
    java.awt.Color[] palette = {new java.awt.Color(31, 119, 180), new java.awt.Color(214, 39, 40),
        new java.awt.Color(44, 160, 44), new java.awt.Color(148, 103, 189), new java.awt.Color(255, 127, 14),
        new java.awt.Color(140, 86, 75)};
    int index = 0;
    for (Row row : rows) {
      java.awt.Color color = palette[index++ % palette.length];
      String name = "p=" + Formats.parameter(row.p()) + ", d=" + row.d();
      double[] y = new double[x.length];
      for (int i = 0; i < x.length; i++) {
        y[i] = Stats.mean(row.byEpsilon().get(eps.get(i)));
        allPositive &= y[i] > 0;
      }
      XYSeries series = chart.addSeries(name + ": defaults", x, y);
      series.setMarker(SeriesMarkers.CIRCLE);
      series.setLineColor(color);
      series.setMarkerColor(color);
      double floor = Stats.mean(row.floor());
      allPositive &= floor > 0;
      XYSeries line = chart.addSeries(name + ": unclipped floor", new double[] {x[0], x[x.length - 1]},
          new double[] {floor, floor});
      line.setMarker(SeriesMarkers.NONE);
      line.setLineStyle(new java.awt.BasicStroke(1.5f, java.awt.BasicStroke.CAP_BUTT, java.awt.BasicStroke.JOIN_MITER,
          10f, new float[] {6f, 4f}, 0f));
      line.setLineColor(color);
    }
    chart.getStyler().setYAxisLogarithmic(allPositive);
    chart.getStyler().setYAxisLogarithmicDecadeOnly(false);
    chart.getStyler().setYAxisDecimalPattern("0.###E0");
    return chart;
  }
}
