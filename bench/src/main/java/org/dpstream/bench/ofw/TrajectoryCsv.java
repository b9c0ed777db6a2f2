package org.dpstream.bench.ofw;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.dpstream.bench.common.CsvFile;
import org.dpstream.bench.common.Formats;

/** {@code trajectories.csv}: SubOpt of the online runs at every checkpoint t (the data behind the plots). */
final class TrajectoryCsv {

  static final String FILE_NAME = "trajectories.csv";
  static final String HEADER = "algorithm,accountant,noise,p,d,T,epsilon,delta,seed,t,subopt";

  private TrajectoryCsv() {}

  static Path write(Path directory, List<RunResult> results) throws IOException {
    return CsvFile.write(directory, FILE_NAME, HEADER, results.stream().flatMap(TrajectoryCsv::rows));
  }

  private static Stream<String> rows(RunResult result) {
    String run = ResultsCsv.runColumns(result);
    return IntStream.range(0, result.checkpoints().length).mapToObj(
        c -> run + "," + result.checkpoints()[c] + "," + Formats.measurement(result.trajectory()[c]));
  }
}
