package org.dpstream.bench.ofw;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.dpstream.bench.common.CsvFile;
import org.dpstream.bench.common.Formats;

/** {@code results.csv}: one row per run, final values. p is written {@code inf} for infinity. */
final class ResultsCsv {

  static final String FILE_NAME = "results.csv";
  static final String HEADER = "algorithm,accountant,noise,p,d,T,epsilon,delta,seed,risk,subopt,seconds";

  private ResultsCsv() {}

  /** The columns that name a run (algorithm to seed), shared with {@link TrajectoryCsv}. */
  static String runColumns(RunResult result) {
    RunSpec run = result.spec();
    return String.join(",",
        run.algorithm().cliName(),
        result.accountant(),
        result.noise(),
        Formats.parameter(run.p()),
        Integer.toString(run.d()),
        Integer.toString(run.horizon()),
        Formats.parameter(run.epsilon()),
        Formats.parameter(run.delta()),
        Long.toString(run.seed()));
  }

  static String row(RunResult result) {
    return String.join(",",
        runColumns(result),
        Formats.measurement(result.risk()),
        Formats.measurement(result.subopt()),
        Formats.measurement(result.seconds()));
  }

  /** Writes the file (replacing it) and returns its path. */
  static Path write(Path directory, List<RunResult> results) throws IOException {
    return CsvFile.write(directory, FILE_NAME, HEADER, results.stream().map(ResultsCsv::row));
  }
}
