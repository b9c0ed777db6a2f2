package org.dpstream.bench.ofw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dpstream.core.online.AccountantChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsCsvTest {

  private static RunResult result(double p) {
    RunSpec run = new RunSpec(Algorithm.OFW, AccountantChoice.ZCDP, p, 10, 10000, 1.0, 1e-4, 3);
    return new RunResult(run, "zcdp", "discrete", 0.0125, 0.25, 1.5, "dp-tofw/test", 0.9, 1e-4, new int[] {1}, new double[] {1});
  }

  @Test
  void headerIsExact() {
    assertEquals("algorithm,accountant,noise,p,d,T,epsilon,delta,seed,risk,subopt,seconds", ResultsCsv.HEADER);
  }

  @Test
  void rowWritesInfinityAsInfAndParametersPlainly() {
    assertEquals("ofw,zcdp,discrete,inf,10,10000,1,0.0001,3,0.0125,0.25,1.5", ResultsCsv.row(result(Double.POSITIVE_INFINITY)));
    assertEquals("ofw,zcdp,discrete,1.5,10,10000,1,0.0001,3,0.0125,0.25,1.5", ResultsCsv.row(result(1.5)));
    assertEquals("ofw,zcdp,discrete,2,10,10000,1,0.0001,3,0.0125,0.25,1.5", ResultsCsv.row(result(2.0)));
  }

  @Test
  void fileHasTheHeaderThenOneRowPerRun(@TempDir Path dir) throws Exception {
    Path file = ResultsCsv.write(dir, List.of(result(1.5), result(Double.POSITIVE_INFINITY)));
    List<String> lines = Files.readAllLines(file);
    assertEquals(List.of(ResultsCsv.HEADER, ResultsCsv.row(result(1.5)), ResultsCsv.row(result(Double.POSITIVE_INFINITY))),
        lines);
  }

  @Test
  void trajectoriesHaveOneRowPerCheckpointAfterTheRunsColumns(@TempDir Path dir) throws Exception {
    RunSpec spec = new RunSpec(Algorithm.OFW, AccountantChoice.ZCDP, 1.5, 10, 10000, 1.0, 1e-4, 3);
    RunResult run = new RunResult(spec, "zcdp", "discrete", 0.0125, 0.25, 1.5, "dp-tofw/test", 0.9, 1e-4, new int[] {10, 20},
        new double[] {0.5, 0.25});
    Path file = TrajectoryCsv.write(dir, List.of(run));
    assertEquals(List.of("algorithm,accountant,noise,p,d,T,epsilon,delta,seed,t,subopt",
        "ofw,zcdp,discrete,1.5,10,10000,1,0.0001,3,10,0.5", "ofw,zcdp,discrete,1.5,10,10000,1,0.0001,3,20,0.25"),
        Files.readAllLines(file));
  }
}
