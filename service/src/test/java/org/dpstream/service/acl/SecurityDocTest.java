package org.dpstream.service.acl;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dpstream.service.config.ConfigLoader;
import org.dpstream.service.dda.DdaNodeConfig;
import org.dpstream.service.testing.RepositoryFiles;
import org.junit.jupiter.api.Test;

/**
 * The ACL tables of docs/security-and-privacy.md are the output of {@code dpstream acls --format table} for the
 * example configs, each under the comment naming its command: a change to the list shows in the document.
 */
class SecurityDocTest {

  private final Path root = RepositoryFiles.root();

  @Test
  void theDocumentsTablesAreTheCommandsOutput() throws IOException {
    String document = Files.readString(root.resolve("docs/security-and-privacy.md"));
    Path service = root.resolve("config/dpstream.yaml");
    assertTable(document, "dpstream acls --config config/dpstream.yaml --principal User:dpstream --format table",
        RequiredAcls.forService(ConfigLoader.load(service)));
    assertTable(document, "dpstream acls --config config/dpstream.yaml --principal User:reader --role releases-reader"
        + " --format table", RequiredAcls.forReleasesReader(ConfigLoader.load(service).topics()));
    assertTable(document, "dpstream acls --config config/dda-node.yaml --principal User:dda --role dda-node --format"
        + " table", RequiredAcls.forDdaNode(ConfigLoader.read(root.resolve("config/dda-node.yaml"),
        DdaNodeConfig.class).topics()));
    assertTrue(document.contains("\n## Kafka security and ACLs\n"), "the part other sections sit next to");
  }

  private static void assertTable(String document, String command, RequiredAcls acls) {
    String expected = "<!-- " + command + " -->\n" + String.join("\n", AclListing.table(acls)) + "\n\n";
    assertTrue(document.contains(expected), "docs/security-and-privacy.md should hold, verbatim:\n" + expected);
  }
}
