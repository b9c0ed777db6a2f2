package org.dpstream.bench.dda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.dpstream.bench.BenchRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DdaExperimentCommandTest {

  private static BenchRun run(String... args) {
    return BenchRun.of(args);
  }

  private static String[] tinyRun(Path dir, String... extra) {
    List<String> args = new java.util.ArrayList<>(List.of("dda", "--data", "synthetic", "--nodes", "4", "--graph", "ring",
        "--iota", "0.5,1.0", "--epsilon", "0.5,1", "--seeds", "2", "--samples-per-node", "20", "--dimension", "3",
        "--epochs", "1", "--checkpoints", "5", "--out", dir.toString()));
    args.addAll(List.of(extra));
    return args.toArray(String[]::new);
  }

  @Test
  void writesTheResultsCsvWithItsHeaderAndThePlot(@TempDir Path dir) throws Exception {
    BenchRun outcome = run(tinyRun(dir));
    assertEquals(0, outcome.exitCode(), outcome.err());
    List<String> lines = Files.readAllLines(dir.resolve("results.csv"));
    assertEquals("algorithm,data,nodes,graph,iota,epsilon,delta,seed,rounds,suboptimality,test_accuracy,seconds", lines.get(0));
    assertEquals(2 * 2 * 2, lines.size() - 1);
    for (String row : lines.subList(1, lines.size())) {
      String[] cells = row.split(",");
      assertEquals(List.of("dp-dda", "synthetic", "4", "ring"), List.of(cells).subList(0, 4), row);
      double iota = Double.parseDouble(cells[4]);
      assertEquals((long) Math.ceil(20 / iota), Long.parseLong(cells[8]), "one epoch = q / iota rounds: " + row);
      assertTrue(Double.parseDouble(cells[9]) >= 0, "suboptimality against the reference optimum: " + row);
      double accuracy = Double.parseDouble(cells[10]);
      assertTrue(accuracy >= 0 && accuracy <= 1, row);
    }
    assertNotNull(ImageIO.read(dir.resolve("suboptimality.png").toFile()));
    assertTrue(outcome.out().contains("non-private reference"), outcome.out());
    assertTrue(outcome.out().contains("gossip=matching"), outcome.out());
  }

  @Test
  void anUnknownGossipModeIsRefusedNamingTheOptionAndTheValue(@TempDir Path dir) {
    BenchRun outcome = run(tinyRun(dir, "--gossip", "flood"));
    assertEquals(2, outcome.exitCode());
    assertTrue(outcome.err().contains("--gossip")
        && outcome.err().contains("gossip must be matching or metropolis, got 'flood'"), outcome.err());
    assertTrue(!Files.exists(dir.resolve("results.csv")));
  }

  @Test
  void calibrationToTheReportMakesTheObtainedEpsilonTheTargetForEveryIota(@TempDir Path dir) throws Exception {
    BenchRun outcome = run(tinyRun(dir, "--calibration", "report", "--delta0", "1e-6", "--composition-delta", "1e-6"));
    assertEquals(0, outcome.exitCode(), outcome.err());
    List<String> accounting = Files.readAllLines(dir.resolve("accounting.csv"));
    List<String> header = List.of(accounting.get(0).split(","));
    int target = header.indexOf("target_epsilon");
    int obtained = header.indexOf("obtained_epsilon");
    assertEquals(4, accounting.size() - 1);
    for (String row : accounting.subList(1, accounting.size())) {
      String[] cells = row.split(",");
      double goal = Double.parseDouble(cells[target]);
      double got = Double.parseDouble(cells[obtained]);
      assertTrue(got <= goal && got > goal * 0.999, "obtained " + got + " for target " + goal);
    }
  }
}
