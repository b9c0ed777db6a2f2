package org.dpstream.bench.bandit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.dpstream.bench.BenchRun;
import org.dpstream.core.data.IdxFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BanditExperimentCommandTest {

  private static BenchRun run(String... args) {
    return BenchRun.of(args);
  }

  /** Every algorithm of the command. */
  private static String availableAlgorithms() {
    return "dphdb,dpucb,dplinear,random,greedy";
  }

  @Test
  void endToEndOnATinySettingWritesTheCsvThePlotAndTheSummary(@TempDir Path dir) throws Exception {
    String algorithms = availableAlgorithms();
    BenchRun outcome = run("bandit", "--env", "synthetic", "--d", "5", "--K", "2", "--T", "300", "--seeds", "2",
        "--epsilon", "1", "--algorithms", algorithms, "--out", dir.toString());
    assertEquals(0, outcome.exitCode(), outcome.err());

    List<String> lines = Files.readAllLines(dir.resolve("results.csv"));
    assertEquals("algorithm,env,d,K,T,epsilon,seed,cumulative_regret,seconds", lines.get(0));
    List<String> rows = lines.subList(1, lines.size());
    int algorithmCount = algorithms.split(",").length;
    assertEquals(2 * algorithmCount, rows.size(), rows.toString());
    for (String row : rows) {
      String[] cells = row.split(",");
      assertEquals(9, cells.length, row);
      assertTrue(algorithms.contains(cells[0]), row);
      assertEquals(List.of("synthetic", "5", "2", "300", "1"), List.of(cells).subList(1, 6), row);
      double regret = Double.parseDouble(cells[7]);
      assertTrue(regret >= 0 && regret <= 300 * 2, "regret per round is at most 2 here: " + row);
      assertTrue(Double.parseDouble(cells[8]) >= 0, row);
    }

    Path png = dir.resolve("cumulative_regret.png");
    assertTrue(Files.size(png) > 1000);
    assertTrue(ImageIO.read(png.toFile()).getWidth() > 0);
    String summary = Files.readString(dir.resolve("summary.txt"));
    assertTrue(summary.contains("regret mean") && summary.contains("accuracy") && summary.contains("dpucb"), summary);
    String randomRow = summary.lines().filter(l -> l.startsWith("random ")).findFirst().orElseThrow();
    assertTrue(randomRow.contains(" 1.000 "), "random is its own reference: " + randomRow);
    assertTrue(summary.contains("vs random"), summary);
    assertTrue(outcome.out().contains(summary.lines().findFirst().orElseThrow()), outcome.out());
  }

  @Test
  void maxContributionsComparesPersonLevelAccountingWithGroupPrivacyPerK(@TempDir Path dir) throws IOException {
    BenchRun outcome = run("bandit", "--env", "synthetic", "--d", "3", "--K", "2", "--T", "400", "--seeds", "1",
        "--epsilon", "1", "--max-contributions", "1,4", "--out", dir.toString());
    assertEquals(0, outcome.exitCode(), outcome.err());
    String table = Files.readString(dir.resolve(PersonLevelCost.FILE_NAME));
    List<String> rows = table.lines().filter(l -> l.matches("\\s*[14]\\s+(400|100)\\s.*")).toList();
    assertEquals(2, rows.size(), table);
    String[] one = rows.get(0).trim().split("\\s+");
    assertEquals(one[2], one[4], "at k = 1 both are the event-level bandit: " + rows.get(0));
    assertTrue(rows.get(1).contains("(0.25, "), "group privacy runs at epsilon / k: " + rows.get(1));
    assertTrue(table.contains("k=4: per person"), table);
    // delta / (k e^((k - 1) epsilon / k)): group privacy over k rounds gives delta back
    double groupDelta = PersonLevelCost.groupDelta(1, 1e-5, 4);
    assertEquals(1e-5, 4 * Math.exp(3 * 0.25) * groupDelta, 1e-18);
    BenchRun refused = run("bandit", "--T", "10", "--seeds", "1", "--max-contributions", "6", "--out",
        dir.resolve("refused").toString());
    assertEquals(2, refused.exitCode());
    assertTrue(refused.err().contains("--max-contributions"), refused.err());
    BenchRun tree = run("bandit", "--T", "400", "--seeds", "1", "--max-contributions", "2", "--dplinear-accountant",
        "zcdp", "--out", dir.resolve("tree").toString());
    assertEquals(2, tree.exitCode());
    assertTrue(tree.err().contains("one round per leaf"), tree.err());
  }

  @Test
  void fashionMnistWithoutItsFilesSaysWhichPackageToInstall(@TempDir Path dir) {
    BenchRun outcome = run("bandit", "--env", "fashion-mnist", "--T", "10", "--seeds", "1", "--algorithms", "dpucb",
        "--data-dir", dir.resolve("absent").toString(), "--out", dir.resolve("out").toString());
    assertEquals(1, outcome.exitCode());
    assertTrue(outcome.err().contains("apt-get install dataset-fashion-mnist"), outcome.err());
  }

  @Test
  void enumOptionsRefuseOtherValuesNamingTheOptionAndTheValue(@TempDir Path dir) {
    BenchRun accountant = run("bandit", "--T", "10", "--seeds", "1", "--dplinear-accountant", "paper",
        "--out", dir.toString());
    assertEquals(2, accountant.exitCode());
    assertTrue(accountant.err().contains("--dplinear-accountant")
        && accountant.err().contains("expected factorization or zcdp, got paper"), accountant.err());
    BenchRun unknown = run("bandit", "--T", "10", "--seeds", "1", "--dplinear-accountant", "rdp",
        "--out", dir.toString());
    assertTrue(unknown.err().contains("--dplinear-accountant") && unknown.err().contains("got 'rdp'"),
        unknown.err());
    BenchRun algorithm = run("bandit", "--T", "10", "--seeds", "1", "--algorithms", "dphdb,thompson",
        "--out", dir.toString());
    assertEquals(2, algorithm.exitCode());
    assertTrue(algorithm.err().contains("--algorithms") && algorithm.err().contains("unknown algorithm 'thompson'"),
        algorithm.err());
    assertTrue(!Files.exists(dir.resolve("results.csv")));
  }

  /**
   * {@code default} runs the service's default policy for the spec (DP-Linear at d = 5) with that policy's noise keys,
   * so its regret equals dplinear's seed by seed; {@code --sparsity} sets theta*'s support on the synthetic
   * environment only.
   */
  @Test
  void theDefaultRunsAsThePolicyTheRuleNamesAndSparsityIsSyntheticOnly(@TempDir Path dir) throws IOException {
    BenchRun outcome = run("bandit", "--env", "synthetic", "--d", "5", "--sparsity", "1", "--K", "3", "--T", "400",
        "--seeds", "2", "--algorithms", "default,dplinear", "--out", dir.resolve("a").toString());
    assertEquals(0, outcome.exitCode(), outcome.err());
    List<String> rows = Files.readAllLines(dir.resolve("a").resolve("results.csv"));
    assertEquals(5, rows.size(), rows.toString());
    for (int seed = 0; seed < 2; seed++) {
      String[] byDefault = rows.get(1 + 2 * seed).split(",");
      String[] linear = rows.get(2 + 2 * seed).split(",");
      assertEquals("default", byDefault[0]);
      assertEquals("dplinear", linear[0]);
      assertEquals(linear[7], byDefault[7], "same regret, seed " + (seed + 1));
    }
    String summary = Files.readString(dir.resolve("a").resolve("summary.txt"));
    assertTrue(summary.lines().anyMatch(l -> l.startsWith("default ") && l.contains("dp-linear/")), summary);

    BenchRun refused = run("bandit", "--env", "fashion-mnist", "--data-dir", tinyFashionMnist(dir).toString(),
        "--sparsity", "2", "--T", "10", "--algorithms", "random", "--out", dir.resolve("b").toString());
    assertEquals(2, refused.exitCode(), refused.err());
    assertTrue(refused.err().contains("--sparsity: only for --env synthetic"), refused.err());
  }

  /** A stand-in for Fashion-MNIST's training split: 8 images of 2x2 pixels, labels 0..3 (so K = 4, d = 4). */
  private static Path tinyFashionMnist(Path dir) throws IOException {
    Path data = Files.createDirectories(dir.resolve("fmnist"));
    int count = 8;
    int[][] images = new int[count][4];
    int[] labels = new int[count];
    for (int i = 0; i < count; i++) {
      for (int p = 0; p < 4; p++) {
        images[i][p] = (37 * (4 * i + p)) % 256;
      }
      labels[i] = i % 4;
    }
    IdxFiles.writeSplit(data, "train", 2, images, labels, false);
    return data;
  }

  @Test
  void fashionMnistFixesTheDimensionAndTheArms(@TempDir Path dir) throws IOException {
    String data = tinyFashionMnist(dir).toString();
    BenchRun arms = run("bandit", "--env", "fashion-mnist", "--data-dir", data, "--K", "3", "--T", "10",
        "--algorithms", "dpucb", "--out", dir.resolve("a").toString());
    assertEquals(2, arms.exitCode(), arms.err());
    assertTrue(arms.err().contains("--K: fashion-mnist fixes it to 4, got 3"), arms.err());

    BenchRun dimension = run("bandit", "--env", "fashion-mnist", "--data-dir", data, "--d", "5", "--T", "10",
        "--algorithms", "dpucb", "--out", dir.resolve("b").toString());
    assertEquals(2, dimension.exitCode(), dimension.err());
    assertTrue(dimension.err().contains("--d: fashion-mnist fixes it to 4, got 5"), dimension.err());

    // The values the data fix are accepted, stated or not, and the run uses them.
    BenchRun accepted = run("bandit", "--env", "fashion-mnist", "--data-dir", data, "--K", "4", "--T", "10",
        "--seeds", "1", "--algorithms", "dpucb", "--out", dir.resolve("c").toString());
    assertEquals(0, accepted.exitCode(), accepted.err());
    List<String> rows = Files.readAllLines(dir.resolve("c").resolve("results.csv"));
    assertEquals(List.of("fashion-mnist", "4", "4"), List.of(rows.get(1).split(",")).subList(1, 4), rows.toString());
  }
}
