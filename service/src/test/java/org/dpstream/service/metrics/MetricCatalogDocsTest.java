package org.dpstream.service.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dpstream.service.testing.RepositoryFiles;
import org.junit.jupiter.api.Test;

/** docs/operations.md's table of every family says what MetricCatalog says: the same public and raw families. */
class MetricCatalogDocsTest {

  private static final Pattern ROW = Pattern.compile("^\\| `([a-z_]+)` \\|[^|]*\\| (public|raw) \\|", Pattern.MULTILINE);

  @Test
  void theDocsTableListsExactlyTheCataloguedFamilies() throws IOException {
    String doc = Files.readString(RepositoryFiles.root().resolve("docs/operations.md"));
    Set<String> documentedPublic = new TreeSet<>();
    Set<String> documentedRaw = new TreeSet<>();
    Matcher row = ROW.matcher(doc);
    while (row.find()) {
      (row.group(2).equals("public") ? documentedPublic : documentedRaw).add(row.group(1));
    }
    assertEquals(new TreeSet<>(MetricCatalog.names(MetricCatalog.PUBLIC)), documentedPublic);
    assertEquals(new TreeSet<>(MetricCatalog.names(MetricCatalog.RAW)), documentedRaw);
  }
}
