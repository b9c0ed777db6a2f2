package org.dpstream.core.data;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/** The file formats the readers understand. */
public enum DataFormat {
  /** Dense CSV ({@link CsvReader}). */
  CSV,
  /** LibSVM / SVMlight ({@link LibSvmReader}). */
  LIBSVM;

  /**
   * Guesses the format from a file name: {@code .csv} (also {@code .tsv}, read with the delimiter the
   * caller gives) is CSV; {@code .libsvm}, {@code .svm}, {@code .svmlight} are LibSVM; anything else is
   * unknown.
   */
  public static Optional<DataFormat> fromFileName(Path file) {
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".csv") || name.endsWith(".tsv")) {
      return Optional.of(CSV);
    }
    if (name.endsWith(".libsvm") || name.endsWith(".svm") || name.endsWith(".svmlight")) {
      return Optional.of(LIBSVM);
    }
    return Optional.empty();
  }
}
