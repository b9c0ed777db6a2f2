package org.dpstream.options;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Parses {@code --feature-bound}: a single positive number (the same bound for every feature) or a file of
 * d positive numbers separated by commas, blanks or newlines (one per feature, in column order; lines
 * starting with '#' are comments).
 */
public final class FeatureBoundsOption {

  private FeatureBoundsOption() {}

  /**
   * @param dimension d, the number of features of the data (intercept excluded)
   * @throws IllegalArgumentException if the value is neither, the count differs from d or a bound is not
   *     finite and positive
   */
  public static double[] resolve(String value, int dimension) throws IOException {
    String text = value.strip();
    double single = parsePositive(text);
    if (!Double.isNaN(single)) {
      double[] bounds = new double[dimension];
      Arrays.fill(bounds, single);
      return bounds;
    }
    Path file = Path.of(text);
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("--feature-bound: '" + value + "' is neither a positive number nor a file");
    }
    String[] tokens = Files.readAllLines(file).stream()
        .filter(line -> !line.strip().startsWith("#"))
        .flatMap(line -> Arrays.stream(line.split("[,\\s]+")))
        .filter(token -> !token.isBlank())
        .toArray(String[]::new);
    if (tokens.length != dimension) {
      throw new IllegalArgumentException("--feature-bound: " + file + " holds " + tokens.length
          + " bounds, the data have " + dimension + " features");
    }
    double[] bounds = new double[dimension];
    for (int j = 0; j < dimension; j++) {
      bounds[j] = parsePositive(tokens[j]);
      if (Double.isNaN(bounds[j])) {
        throw new IllegalArgumentException("--feature-bound: bound " + (j + 1) + " in " + file + " is '" + tokens[j]
            + "', not a finite number > 0");
      }
    }
    return bounds;
  }

  /** The value if it is a finite number > 0, else NaN. */
  private static double parsePositive(String text) {
    try {
      double v = Double.parseDouble(text);
      return v > 0 && Double.isFinite(v) ? v : Double.NaN;
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }
}
