package org.dpstream.bench.bandit;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.dpstream.bench.common.CsvFile;
import org.dpstream.bench.common.Formats;

/** {@code results.csv} of the bandit command: one row per run, final values. */
final class BanditResultsCsv {

  static final String FILE_NAME = "results.csv";
  static final String HEADER = "algorithm,env,d,K,T,epsilon,seed,cumulative_regret,seconds";

  private BanditResultsCsv() {}

  static String row(BanditRunResult result) {
    BanditRunSpec run = result.spec();
    return String.join(",",
        run.algorithm().cliName(),
        run.env(),
        Integer.toString(run.d()),
        Integer.toString(run.arms()),
        Integer.toString(run.horizon()),
        Formats.parameter(run.epsilon()),
        Long.toString(run.seed()),
        Formats.measurement(result.cumulativeRegret()),
        Formats.measurement(result.seconds()));
  }

  /** Writes the file (replacing it) and returns its path. */
  static Path write(Path directory, List<BanditRunResult> results) throws IOException {
    return CsvFile.write(directory, FILE_NAME, HEADER, results.stream().map(BanditResultsCsv::row));
  }
}
