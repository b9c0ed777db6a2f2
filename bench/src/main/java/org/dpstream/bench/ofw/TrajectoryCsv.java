package org.dpstream.bench.ofw;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dpstream.bench.common.Formats;

/** {@code trajectories.csv}: SubOpt of the online runs at every checkpoint t (the data behind the plots). */
final class TrajectoryCsv {

  static final String FILE_NAME = "trajectories.csv";
  static final String HEADER = "algorithm,accountant,p,d,T,epsilon,delta,seed,t,subopt";

  private TrajectoryCsv() {}

  static Path write(Path directory, List<RunResult> results) throws IOException {
    Path file = directory.resolve(FILE_NAME);
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write(HEADER);
      out.write('\n');
      for (RunResult result : results) {
        RunSpec run = result.spec();
        String prefix = String.join(",", run.algorithm().cliName(), result.accountant(),
            Formats.parameter(run.p()), Integer.toString(run.d()), Integer.toString(run.horizon()),
            Formats.parameter(run.epsilon()), Formats.parameter(run.delta()), Long.toString(run.seed()));
        for (int c = 0; c < result.checkpoints().length; c++) {
          out.write(prefix + "," + result.checkpoints()[c] + "," + Formats.measurement(result.trajectory()[c]));
          out.write('\n');
        }
      }
    }
    return file;
  }
}
