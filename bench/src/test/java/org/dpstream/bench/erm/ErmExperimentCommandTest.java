package org.dpstream.bench.erm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.dpstream.bench.BenchRun;
import org.dpstream.core.erm.training.ErmSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ErmExperimentCommandTest {

  private static BenchRun run(String... args) {
    return BenchRun.of(args);
  }

  @Test
  void endToEndOnATinySyntheticSettingWritesTheCsvAndThePlot(@TempDir Path dir) throws Exception {
    String algorithms = "dpcd-smooth,dpcd-uniform,dpskgd-importance,dpskgd-uniform,dpsgd";
    BenchRun outcome = run("erm", "--data", "synthetic-unbalanced", "--loss", "logistic", "--reg", "l2", "--n", "300",
        "--p", "5", "--test-size", "100", "--passes", "3", "--seeds", "2", "--epsilon", "1",
        "--clip-fractions", "1,0.3", "--step-scales", "1", "--algorithms", algorithms, "--out", dir.toString());
    assertEquals(0, outcome.exitCode(), outcome.err());
    List<String> lines = Files.readAllLines(dir.resolve("results.csv"));
    assertEquals("algorithm,data,loss,reg,epsilon,delta,seed,passes,relative_error,test_accuracy,seconds", lines.get(0));
    List<String> rows = lines.subList(1, lines.size());
    assertEquals(5 * 2, rows.size(), rows.toString());
    for (String row : rows) {
      String[] cells = row.split(",");
      assertEquals(11, cells.length, row);
      assertTrue(algorithms.contains(cells[0]), row);
      assertEquals(List.of("synthetic-unbalanced", "logistic", "l2", "1"), List.of(cells).subList(1, 5), row);
      assertEquals(1.0 / (300.0 * 300.0), Double.parseDouble(cells[5]), 1e-15, row);
      assertEquals("3", cells[7], row);
      double accuracy = Double.parseDouble(cells[9]);
      assertTrue(accuracy >= 0 && accuracy <= 1, row);
      assertTrue(Double.isFinite(Double.parseDouble(cells[8])), row);
    }
    Path png = dir.resolve("relative_error.png");
    assertTrue(Files.size(png) > 1000);
    assertTrue(ImageIO.read(png.toFile()).getWidth() > 0);
    assertEquals(1 + 5 * 2 * 4, Files.readAllLines(dir.resolve("trajectories.csv")).size());
    assertEquals(1 + 5 * 2, Files.readAllLines(dir.resolve("tuning.csv")).size());
    String summary = Files.readString(dir.resolve("summary.txt"));
    assertTrue(summary.contains("rel.err mean") && summary.contains("dpskgd-importance"), summary);
    assertTrue(outcome.out().contains(summary.lines().findFirst().orElseThrow()), outcome.out());
  }

  @Test
  void squaredLossWithL1OnBalancedData(@TempDir Path dir) throws Exception {
    BenchRun outcome = run("erm", "--data", "synthetic-balanced", "--loss", "squared", "--reg", "l1", "--n", "200",
        "--p", "4", "--test-size", "50", "--passes", "2", "--seeds", "1", "--clip-fractions", "1",
        "--step-scales", "1", "--algorithms", "dpcd-smooth,dpsgd", "--out", dir.toString());
    assertEquals(0, outcome.exitCode(), outcome.err());
    assertEquals(3, Files.readAllLines(dir.resolve("results.csv")).size());
  }

  @Test
  void optionValidation(@TempDir Path dir) {
    String out = dir.toString();
    BenchRun data = run("erm", "--data", "mnist", "--out", out);
    assertEquals(2, data.exitCode());
    assertTrue(data.err().contains("--data: expected synthetic-balanced"), data.err());
    BenchRun algorithm = run("erm", "--algorithms", "dpcd,dpsgd", "--out", out);
    assertEquals(2, algorithm.exitCode());
    assertTrue(algorithm.err().contains("unknown ERM algorithm 'dpcd'"), algorithm.err());
    assertEquals(2, run("erm", "--loss", "hinge", "--out", out).exitCode());
    assertEquals(2, run("erm", "--reg", "l3", "--out", out).exitCode());
    assertEquals(2, run("erm", "--seeds", "0", "--out", out).exitCode());
    assertEquals(2, run("erm", "--epsilon", "-1", "--out", out).exitCode());
    assertEquals(2, run("erm", "--clip-fractions", "0", "--out", out).exitCode());
    assertEquals(2, run("erm").exitCode());
    BenchRun missing = run("erm", "--data", "fashion-mnist", "--data-dir", dir.resolve("absent").toString(), "--out", out);
    assertEquals(1, missing.exitCode());
    assertTrue(missing.err().contains("apt-get install dataset-fashion-mnist"), missing.err());
  }

  @Test
  void syntheticDataFollowTheRecipe() {
    SyntheticErmData.Generated data = SyntheticErmData.generate(true, ErmSettings.Loss.LOGISTIC, 2000, 20, 10, 3);
    double positives = 0;
    for (int j = 0; j < 20; j++) {
      assertEquals(SyntheticErmData.TRUNCATION * Math.sqrt(data.scales()[j]), data.bounds()[j], 1e-12);
      for (int i = 0; i < 2000; i++) {
        assertTrue(Math.abs(data.train().feature(i, j)) <= data.bounds()[j]);
      }
    }
    for (int i = 0; i < 2000; i++) {
      double y = data.train().label(i);
      assertTrue(y == 0 || y == 1);
      positives += y;
    }
    assertTrue(positives > 600 && positives < 1400, "roughly balanced labels: " + positives);
    SyntheticErmData.Generated balanced = SyntheticErmData.generate(false, ErmSettings.Loss.SQUARED, 10, 3, 5, 3);
    assertEquals(List.of(3.0, 3.0, 3.0), java.util.Arrays.stream(balanced.bounds()).boxed().toList());
  }

  @Test
  void aCsvFileRunsTrainsDefaultsOverSplitsAgainstBothBaselines(@TempDir Path dir) throws Exception {
    Path csv = toyCsv(dir, 9L, 150, 50, 0.1, 0);
    Path bounds = dir.resolve("toy.bounds");
    Files.writeString(bounds, "60\n0.12\n");
    Path out = dir.resolve("out");
    BenchRun outcome = run("erm", "--data", "csv:" + csv, "--feature-bound", bounds.toString(), "--intercept",
        "--algorithms", "dpsgd,dpcd-smooth", "--epsilon", "1,10", "--splits", "2", "--baseline-lambdas", "0.01,0.1",
        "--out", out.toString());
    assertEquals(0, outcome.exitCode(), outcome.err());
    List<String> lines = Files.readAllLines(out.resolve("results.csv"));
    assertEquals("data,algorithm,epsilon,lambda,split,accuracy", lines.get(0));
    // Per split: optimum, majority, and per epsilon 2 algorithms + 2 baselines x 2 lambdas.
    assertEquals(2 * (2 + 2 * (2 + 2 * 2)), lines.size() - 1);
    String summary = Files.readString(out.resolve("summary.txt"));
    for (String row : List.of("| dpsgd |", "| dpcd-smooth |", "| output-perturbation |", "| objective-perturbation |",
        "| non-private optimum (not private) |", "| majority class (not private) |")) {
      assertTrue(summary.contains(row), summary);
    }
    assertTrue(summary.contains("eps = 1 |") && summary.contains("eps = 10 |"), summary);
    for (String line : lines.subList(1, lines.size())) {
      double accuracy = Double.parseDouble(line.substring(line.lastIndexOf(',') + 1));
      assertTrue(accuracy >= 0 && accuracy <= 1, line);
    }

    BenchRun noBounds = run("erm", "--data", "csv:" + csv, "--out", out.toString());
    assertEquals(2, noBounds.exitCode());
    assertTrue(noBounds.err().contains("--feature-bound is required"), noBounds.err());
  }

  /** --clip-quantile changes DP-SGD's runs only (same splits and noise keys for every other row). */
  @Test
  void theClipQuantileOptionChangesOnlyDpSgdsRows(@TempDir Path dir) throws Exception {
    Path csv = toyCsv(dir, 18L, 120, 5, 2, 0.3);
    java.util.Map<String, List<String>> rowsByQuantile = new java.util.HashMap<>();
    for (String q : List.of("0.1", "0.95")) {
      Path out = dir.resolve("q" + q);
      BenchRun outcome = run("erm", "--data", "csv:" + csv, "--feature-bound", "6", "--algorithms", "dpsgd,dpcd-smooth",
          "--epsilon", "3", "--splits", "2", "--baseline-lambdas", "0.1", "--clip-quantile", q, "--out", out.toString());
      assertEquals(0, outcome.exitCode(), outcome.err());
      assertTrue(outcome.err().contains("clip quantile " + q), outcome.err());
      rowsByQuantile.put(q, Files.readAllLines(out.resolve("results.csv")));
    }
    List<String> low = rowsByQuantile.get("0.1");
    List<String> high = rowsByQuantile.get("0.95");
    assertEquals(low.size(), high.size());
    int dpsgdRowsDiffering = 0;
    for (int i = 1; i < low.size(); i++) {
      if (low.get(i).contains(",dpsgd,")) {
        dpsgdRowsDiffering += low.get(i).equals(high.get(i)) ? 0 : 1;
      } else {
        assertEquals(low.get(i), high.get(i));
      }
    }
    assertTrue(dpsgdRowsDiffering > 0, "DP-SGD's accuracy moved with its clip quantile in some split");

    BenchRun outside = run("erm", "--data", "csv:" + csv, "--feature-bound", "6", "--clip-quantile", "1",
        "--out", dir.resolve("bad").toString());
    assertEquals(2, outside.exitCode());
    assertTrue(outside.err().contains("--clip-quantile: must be in (0, 1), got 1.0"), outside.err());
  }

  /** DIR/toy.csv: x1 = scaleA a, x2 = scaleB b for a, b uniform on [0, 1), label 1 where a + shift > b. */
  private static Path toyCsv(Path dir, long seed, int rows, double scaleA, double scaleB, double shift)
      throws java.io.IOException {
    StringBuilder text = new StringBuilder("x1,x2,label\n");
    org.apache.commons.rng.UniformRandomProvider rng =
        org.apache.commons.rng.simple.RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    for (int i = 0; i < rows; i++) {
      double a = rng.nextDouble();
      double b = rng.nextDouble();
      text.append(String.format(java.util.Locale.ROOT, "%.5f,%.5f,%d%n", scaleA * a, scaleB * b, a + shift > b ? 1 : 0));
    }
    Path csv = dir.resolve("toy.csv");
    Files.writeString(csv, text.toString());
    return csv;
  }
}
