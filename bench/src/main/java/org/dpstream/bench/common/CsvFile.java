package org.dpstream.bench.common;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.stream.Stream;

/** The experiments' CSV files: a header line, then the rows, each line ended by {@code \n}, in UTF-8. */
public final class CsvFile {

  private CsvFile() {}

  /** Writes {@code fileName} in {@code directory} (replacing it) and returns its path. */
  public static Path write(Path directory, String fileName, String header, Stream<String> rows) throws IOException {
    Path file = directory.resolve(fileName);
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write(header);
      out.write('\n');
      for (Iterator<String> row = rows.iterator(); row.hasNext(); ) {
        out.write(row.next());
        out.write('\n');
      }
    }
    return file;
  }
}
