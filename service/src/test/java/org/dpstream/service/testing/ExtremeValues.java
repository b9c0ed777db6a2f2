package org.dpstream.service.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Tuple;

/** Generators and encoders shared by the property tests that feed arbitrary values through the topologies. */
public final class ExtremeValues {

  private ExtremeValues() {}

  /**
   * Any double, weighted towards the values that break arithmetic: +-MAX_VALUE, huge and tiny finite
   * values, subnormals, -0.0, NaN and the infinities; and ordinary values in [-2, 2], so that most
   * records are otherwise valid and take a step.
   */
  public static Arbitrary<Double> doubles() {
    return Arbitraries.frequencyOf(
        Tuple.of(8, Arbitraries.doubles().between(-2, 2)),
        Tuple.of(4, Arbitraries.of(Double.MAX_VALUE, -Double.MAX_VALUE, 1e200, -1e200, 1e300, 1e-300,
            Double.MIN_VALUE, -Double.MIN_VALUE, Double.MIN_NORMAL, Math.nextDown(Double.MIN_NORMAL), -0.0, 0.0)),
        Tuple.of(1, Arbitraries.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY)),
        Tuple.of(2, Arbitraries.doubles()));
  }

  /**
   * A double as JSON: finite values as numbers (Java's shortest repr is valid JSON, "1.0E200",
   * "4.9E-324", "-0.0"); NaN and the infinities either as the strings "NaN", "Infinity", "-Infinity"
   * (how dpstream writes them) or as bare tokens (what some producers send).
   */
  public static String json(double value, boolean quoteNonFinite) {
    if (Double.isFinite(value)) {
      return Double.toString(value);
    }
    String token = Double.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
    return quoteNonFinite ? "\"" + token + "\"" : token;
  }

  public static String jsonArray(List<Double> values, boolean quoteNonFinite) {
    return values.stream().map(v -> json(v, quoteNonFinite)).collect(Collectors.joining(", ", "[", "]"));
  }

  public static String jsonInts(List<Long> values) {
    return values.stream().map(v -> String.format(Locale.ROOT, "%d", v)).collect(Collectors.joining(", ", "[", "]"));
  }

  public static boolean allFinite(List<Double> values) {
    return values.stream().allMatch(Double::isFinite);
  }

  /** Deletes a temporary state directory (jqwik has no @TempDir). */
  public static void deleteRecursively(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
