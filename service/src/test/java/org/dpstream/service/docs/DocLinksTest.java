package org.dpstream.service.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.dpstream.service.testing.RepositoryFiles;
import org.junit.jupiter.api.Test;

/**
 * The Markdown of the repository points only at what exists in it: every relative link resolves to a file of the
 * repository (never outside it) and, with an anchor, to a heading of that file; every source path named in a doc
 * exists; metrics are named as Prometheus scrapes them, never by Micrometer's dotted names.
 */
class DocLinksTest {

  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6} (.+)$");
  /** `core/.../distributed/DdaRunSpec` or `service/src/main/java/...`: a module's source file or directory. */
  private static final Pattern SOURCE_PATH =
      Pattern.compile("`((?:core|bandit|service|schemas|options|testkit|demo|stream-app|bench)/[\\w./-]*(?:src|\\.\\.\\.)/[\\w./-]+)`");
  private static final Pattern DOTTED_METRIC = Pattern.compile("(?<![\\w.])dpstream\\.[a-z_]+\\.[a-z_.]+");

  private final Path root = RepositoryFiles.root();

  @Test
  void everyRelativeLinkResolvesInsideTheRepository() throws IOException {
    List<String> broken = new ArrayList<>();
    for (Path document : markdown()) {
      Matcher link = LINK.matcher(Files.readString(document));
      while (link.find()) {
        String target = link.group(1);
        if (target.matches("^[a-z]+:.*")) {
          continue; // http(s), mailto
        }
        String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
        Path resolved = file.isEmpty() ? document : document.getParent().resolve(file).normalize();
        if (!resolved.startsWith(root) || !Files.exists(resolved)) {
          broken.add(root.relativize(document) + ": " + target);
        } else if (target.contains("#") && Files.isRegularFile(resolved)
            && !anchors(resolved).contains(target.substring(target.indexOf('#') + 1))) {
          broken.add(root.relativize(document) + ": " + target + " (no such heading)");
        }
      }
    }
    assertTrue(broken.isEmpty(), "links to nothing in the repository:\n" + String.join("\n", broken));
  }

  @Test
  void everySourcePathNamedInTheDocsExists() throws IOException {
    List<String> missing = matchesWhere(SOURCE_PATH, 1, path -> !exists(path));
    assertTrue(missing.isEmpty(), "source paths that do not exist:\n" + String.join("\n", missing));
  }

  @Test
  void metricsAreNamedAsPrometheusScrapesThem() throws IOException {
    List<String> dotted = matchesWhere(DOTTED_METRIC, 0, name -> !name.matches("dpstream\\.(jar|yaml)\\b.*"));
    assertTrue(dotted.isEmpty(), "Micrometer names where Prometheus names belong:\n" + String.join("\n", dotted));
  }

  private interface Check {
    boolean test(String match) throws IOException;
  }

  /** Every match (its group {@code group}) of the pattern in the Markdown for which {@code wrong} holds, by file. */
  private List<String> matchesWhere(Pattern pattern, int group, Check wrong) throws IOException {
    List<String> found = new ArrayList<>();
    for (Path document : markdown()) {
      Matcher match = pattern.matcher(Files.readString(document));
      while (match.find()) {
        if (wrong.test(match.group(group))) {
          found.add(root.relativize(document) + ": " + match.group(group));
        }
      }
    }
    return found;
  }

  /** A path with {@code ...} stands for the package directories in between: some file must end with the rest. */
  private boolean exists(String path) throws IOException {
    if (!path.contains("...")) {
      return Files.exists(root.resolve(path)) || Files.exists(root.resolve(path + ".java"));
    }
    String module = path.substring(0, path.indexOf("/..."));
    String tail = path.substring(path.indexOf("...") + 3);
    try (Stream<Path> files = Files.walk(root.resolve(module))) {
      return files.map(file -> file.toString().replace('\\', '/'))
          .anyMatch(file -> file.endsWith(tail) || file.endsWith(tail + ".java"));
    }
  }

  /** GitHub's anchors: the heading in lower case, punctuation but hyphens and spaces dropped, spaces as hyphens. */
  private static Set<String> anchors(Path document) throws IOException {
    Set<String> anchors = new HashSet<>();
    Matcher heading = HEADING.matcher(Files.readString(document));
    while (heading.find()) {
      anchors.add(heading.group(1).trim().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "")
          .replace(' ', '-'));
    }
    return anchors;
  }

  private List<Path> markdown() throws IOException {
    List<Path> documents = new ArrayList<>();
    try (Stream<Path> top = Files.list(root)) {
      top.filter(path -> path.toString().endsWith(".md")).forEach(documents::add);
    }
    try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
      docs.filter(path -> path.toString().endsWith(".md")).forEach(documents::add);
    }
    return documents;
  }
}
