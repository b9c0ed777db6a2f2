package org.dpstream.bench.ofw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import org.dpstream.bench.BenchRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OfwExperimentCommandTest {

  private static BenchRun run(String... args) {
    return BenchRun.of(args);
  }

  @Test
  void endToEndOnATinySettingWritesTheCsvThePlotsAndTheSummary(@TempDir Path dir) throws Exception {
    BenchRun outcome = run("ofw", "--p", "1.5,inf", "--d", "3", "--T", "200", "--seeds", "2",
        "--algorithms", "ofw", "--accountant", "zcdp", "--epsilon", "1", "--out", dir.toString());
    assertEquals(0, outcome.exitCode(), outcome.err());

    List<String> lines = Files.readAllLines(dir.resolve("results.csv"));
    assertEquals("algorithm,accountant,noise,p,d,T,epsilon,delta,seed,risk,subopt,seconds", lines.get(0));
    List<String> rows = lines.subList(1, lines.size());
    assertEquals(4, rows.size(), "2 values of p x 2 seeds: " + rows);
    Set<String> ps = rows.stream().map(r -> r.split(",")[3]).collect(Collectors.toSet());
    assertEquals(Set.of("1.5", "inf"), ps, "the given --p replaces the default");
    for (String row : rows) {
      String[] cells = row.split(",");
      assertEquals(12, cells.length, row);
      assertEquals("ofw", cells[0]);
      assertEquals("zcdp", cells[1]);
      assertEquals("discrete", cells[2], "the service's default noise under zcdp");
      assertEquals("3", cells[4]);
      assertEquals("200", cells[5]);
      assertEquals("0.005", cells[7], "delta defaults to 1/T");
      assertTrue(Double.isFinite(Double.parseDouble(cells[10])), row);
      assertTrue(Double.parseDouble(cells[11]) >= 0, row);
    }

    for (String png : List.of("subopt_p1.5_d3_T200_eps1.png", "subopt_pinf_d3_T200_eps1.png")) {
      Path file = dir.resolve(png);
      assertTrue(Files.size(file) > 1000, png);
      assertTrue(ImageIO.read(file.toFile()).getWidth() > 0, png);
    }
    assertTrue(Files.readAllLines(dir.resolve("trajectories.csv")).size() > 4);

    assertTrue(outcome.out().contains("subopt mean"), outcome.out());
    assertTrue(outcome.out().contains("dp-tofw/zcdp"), "names the mechanism: " + outcome.out());
    assertTrue(outcome.err().contains("4/4 runs 100%"), outcome.err());
  }

  @Test
  void unknownAlgorithmIsRejectedWithAClearMessage(@TempDir Path dir) {
    BenchRun outcome = run("ofw", "--algorithms", "ofw,adam", "--T", "50", "--seeds", "1", "--out", dir.toString());
    assertTrue(outcome.exitCode() != 0);
    assertTrue(outcome.err().contains("unknown algorithm 'adam'; expected one of ofw, noisysfw, noisysgd"),
        outcome.err());
    assertTrue(!Files.exists(dir.resolve("results.csv")));
  }

  @Test
  void pBelowOneIsRejectedWithAClearMessage(@TempDir Path dir) {
    BenchRun outcome = run("ofw", "--p", "1.5,0.5", "--out", dir.toString());
    assertTrue(outcome.exitCode() != 0);
    assertTrue(outcome.err().contains("p must be >= 1"), outcome.err());
  }

  @Test
  void otherInvalidOptionsAreRejected(@TempDir Path dir) {
    BenchRun badAccountant = run("ofw", "--accountant", "rdp", "--out", dir.toString());
    assertTrue(badAccountant.exitCode() != 0);
    assertTrue(badAccountant.err().contains("--accountant")
        && badAccountant.err().contains("accountant must be paper, zcdp, factorization, blt or auto, got 'rdp'"),
        badAccountant.err());

    BenchRun badDelta = run("ofw", "--delta", "0", "--out", dir.toString());
    assertTrue(badDelta.exitCode() != 0);
    assertTrue(badDelta.err().contains("--delta: must be in (0, 1)"), badDelta.err());

    BenchRun badT = run("ofw", "--T", "1", "--out", dir.toString());
    assertTrue(badT.exitCode() != 0);
    assertTrue(badT.err().contains("--T: the stream length must be >= 2"), badT.err());

    BenchRun badNoise = run("ofw", "--noise", "gaussian", "--out", dir.toString());
    assertTrue(badNoise.exitCode() != 0);
    assertTrue(badNoise.err().contains("--noise")
        && badNoise.err().contains("noise must be continuous or discrete, got gaussian"), badNoise.err());

    BenchRun discretePaper = run("ofw", "--noise", "DISCRETE", "--accountant", "paper", "--out", dir.toString());
    assertTrue(discretePaper.exitCode() != 0);
    assertTrue(discretePaper.err().contains("--noise discrete needs --accountant auto, zcdp or (p > 1) blt, got paper"),
        discretePaper.err());
  }

  /**
   * Without options a run is what the service does for a model that leaves every option out (ModelConfig): accountant
   * auto, discrete noise, adaptive clipping with the balanced threshold; at p = 1 DP-POFW's exponential mechanism
   * with discrete noise. Every table names the noise it used.
   */
  @Test
  void defaultsAreTheServicesDefaults(@TempDir Path dir) throws Exception {
    BenchRun outcome = run("ofw", "--p", "1.5,1", "--d", "3", "--T", "300", "--seeds", "1", "--out", dir.toString());
    assertEquals(0, outcome.exitCode(), outcome.err());
    List<String> rows = Files.readAllLines(dir.resolve("results.csv"));
    assertTrue(rows.get(1).startsWith("ofw,auto,discrete,1.5,3,300,"), rows.toString());
    assertTrue(rows.get(2).startsWith("ofw,auto,discrete,1,3,300,"), rows.toString());
    assertTrue(outcome.out().contains("adaptive balanced"), outcome.out());
    assertTrue(outcome.out().contains("discrete-gaussian"), outcome.out());
    assertTrue(outcome.out().lines().anyMatch(line -> line.startsWith("algorithm") && line.contains("noise")),
        outcome.out());
    BenchRun continuous = run("ofw", "--d", "3", "--T", "300", "--seeds", "1", "--accountant", "blt",
        "--out", dir.toString());
    assertEquals(0, continuous.exitCode(), continuous.err());
    assertTrue(Files.readAllLines(dir.resolve("results.csv")).get(1).startsWith("ofw,blt,continuous,"),
        "blt defaults to continuous noise, as in the service");
  }

  @Test
  void baselinesRunBesideTheOnlineEstimatorAndNameTheirCalibration(@TempDir Path dir) throws Exception {
    BenchRun outcome = run("ofw", "--p", "1.5,inf", "--d", "3", "--T", "200", "--seeds", "1",
        "--algorithms", "ofw,noisysfw,noisysgd", "--out", dir.toString());
    assertEquals(0, outcome.exitCode(), outcome.err());
    List<String> rows = Files.readAllLines(dir.resolve("results.csv"));
    // ofw at both p; noisysfw and noisysgd wherever they are defined (the command runs what was asked).
    assertTrue(rows.stream().anyMatch(r -> r.startsWith("noisysfw,bgn21-generalized-gaussian,-,1.5,")), rows.toString());
    assertTrue(rows.stream().anyMatch(r -> r.startsWith("noisysgd,bfgt20-gaussian,-,inf,")), rows.toString());
    assertTrue(outcome.out().contains("noisy-sfw(n=200"), outcome.out());
  }

  /** The node sigma in the mechanism string of the summary's row of {@code accountant}. */
  private static double nodeSigma(String summary, String accountant) {
    String row = summary.lines().filter(line -> line.contains(" " + accountant + " ")).findFirst().orElseThrow(
        () -> new AssertionError("no row of " + accountant + " in " + summary));
    java.util.regex.Matcher sigma = java.util.regex.Pattern.compile("sigma=([0-9.Ee+-]+)\\)").matcher(row);
    assertTrue(sigma.find(), row);
    return Double.parseDouble(sigma.group(1));
  }

  /**
   * --max-contributions 4: per seed one event-level run, one accounted for 4 participations and one by group privacy;
   * the person-level ones name their unit, and accounting for k takes less noise than group privacy at the same
   * guarantee per person.
   */
  @Test
  void maxContributionsRunsThePersonLevelModelBesideTheGroupPrivacyBaseline(@TempDir Path dir) throws Exception {
    BenchRun outcome = run("ofw", "--p", "1.5", "--d", "3", "--T", "256", "--seeds", "2", "--algorithms", "ofw",
        "--accountant", "zcdp", "--clip", "0.5", "--epsilon", "1", "--max-contributions", "1,4", "--out", dir.toString());
    assertEquals(0, outcome.exitCode(), outcome.err());
    List<String[]> rows = Files.readAllLines(dir.resolve("results.csv")).stream().skip(1).map(r -> r.split(","))
        .toList();
    assertEquals(Set.of("zcdp", "zcdp/user-k4", "zcdp/group-k4"),
        rows.stream().map(r -> r[1]).collect(Collectors.toSet()));
    assertEquals(6, rows.size());
    // T = 256: h = 9, Phi_4 = 4 + 8 + 7 * 16 = 124 < 4^2 h; group privacy pays (epsilon / 4)^2 and a smaller delta
    double user = nodeSigma(outcome.out(), "zcdp/user-k4");
    double group = nodeSigma(outcome.out(), "zcdp/group-k4");
    assertTrue(user < group, "accounted for k: sigma " + user + ", group privacy: " + group);

    BenchRun paper = run("ofw", "--accountant", "paper", "--max-contributions", "2", "--out", dir.toString());
    assertTrue(paper.exitCode() != 0);
    assertTrue(paper.err().contains("--max-contributions K > 1 is accounted in zCDP"), paper.err());
  }
}
