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

  /**
   * The format a user names: {@code csv}, {@code libsvm} (or {@code svmlight}), or {@code auto} for the one
   * {@link #fromFileName} tells from {@code file}'s name; any case, blanks ignored.
   *
   * @throws IllegalArgumentException saying what was expected (the caller prefixes its option or key)
   */
  public static DataFormat resolve(String choice, Path file) {
    return switch (choice.strip().toLowerCase(Locale.ROOT)) {
      case "csv" -> CSV;
      case "libsvm", "svmlight" -> LIBSVM;
      case "auto" -> fromFileName(file).orElseThrow(() -> new IllegalArgumentException(
          "cannot tell the format of " + file.getFileName() + " from its name; say csv or libsvm"));
      default -> throw new IllegalArgumentException("expected csv, libsvm or auto, got '" + choice + "'");
    };
  }
}
