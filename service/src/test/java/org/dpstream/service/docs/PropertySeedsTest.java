package org.dpstream.service.docs;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.dpstream.service.testing.RepositoryFiles;
import org.junit.jupiter.api.Test;

/**
 * Every jqwik property of every module names its seed: the modules' jqwik settings allow fixed seeds but set none, and
 * a property without one draws new tries at each run, so that a test run, and the mutation scores CI checks, would not
 * be reproducible.
 */
class PropertySeedsTest {

  /** An {@code @Property} annotation and its arguments, if it has any. */
  private static final Pattern PROPERTY = Pattern.compile("@Property\\b(\\s*\\(([^)]*)\\))?");

  @Test
  void everyPropertyNamesItsSeed() throws IOException {
    Path root = RepositoryFiles.root();
    List<String> unseeded = new ArrayList<>();
    int properties = 0;
    try (Stream<Path> all = Files.walk(root)) {
      for (Path file : all.filter(PropertySeedsTest::isTestSource).toList()) {
        Matcher matcher = PROPERTY.matcher(Files.readString(file, StandardCharsets.UTF_8));
        while (matcher.find()) {
          properties++;
          if (!seeded(matcher)) {
            unseeded.add(root.relativize(file) + ": " + matcher.group());
          }
        }
      }
    }
    assertTrue(properties > 40, "found only " + properties + " properties: is the root right?");
    assertTrue(unseeded.isEmpty(), "properties without @Property(seed = ...):\n" + String.join("\n", unseeded));
  }

  @Test
  void theCheckTellsSeededFromUnseeded() {
    for (String unseeded : List.of("@Property\n  void x()", "@Property(tries = 300)", "@Property()")) {
      Matcher matcher = PROPERTY.matcher(unseeded);
      assertTrue(matcher.find(), unseeded);
      assertFalse(seeded(matcher), unseeded);
    }
    Matcher seeded = PROPERTY.matcher("@Property(tries = 100, seed = \"3011\")");
    assertTrue(seeded.find() && seeded(seeded));
  }

  private static boolean seeded(Matcher property) {
    return property.group(2) != null && property.group(2).matches("(?s).*\\bseed\\s*=.*");
  }

  private static boolean isTestSource(Path path) {
    String text = path.toString().replace('\\', '/');
    return text.endsWith(".java") && text.contains("/src/test/java/") && !text.contains("/target/")
        && !path.getFileName().toString().equals("PropertySeedsTest.java"); // its own examples
  }
}
