package org.dpstream.service.acl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.dpstream.service.testing.CommandRun;
import org.dpstream.service.testing.RepositoryFiles;
import org.junit.jupiter.api.Test;

/** {@code dpstream acls}: the commands and the table it prints, and what it says about bad input. */
class AclsCommandTest {

  private static final String EXAMPLE = RepositoryFiles.root().resolve("config/dpstream.yaml").toString();

  @Test
  void printsOneKafkaAclsCommandPerResourceWithItsReasons() {
    CommandRun run = run("--config", EXAMPLE, "--principal", "User:dpstream", "--bootstrap-server", "kafka:9093",
        "--command-config", "/etc/kafka/admin.properties");
    assertEquals(0, run.exitCode(), run.err());
    List<String> commands = run.out().lines().filter(line -> line.startsWith("kafka-acls.sh")).toList();
    assertEquals(13, commands.size(), run.out());
    assertTrue(commands.contains("kafka-acls.sh --bootstrap-server kafka:9093 --command-config"
        + " /etc/kafka/admin.properties --add --allow-principal User:dpstream --allow-host '*' --operation Read"
        + " --operation Write --operation Create --topic dp.releases"), run.out());
    assertTrue(commands.contains("kafka-acls.sh --bootstrap-server kafka:9093 --command-config"
        + " /etc/kafka/admin.properties --add --allow-principal User:dpstream --allow-host '*' --operation Write"
        + " --transactional-id dpstream- --resource-pattern-type prefixed"), run.out());
    assertTrue(run.out().contains("# Delete: Kafka Streams deletes the routing topic's consumed records"), run.out());
    long operations = commands.stream().mapToLong(line -> line.split(" --operation ", -1).length - 1).sum();
    assertEquals(RequiredAcls.forService(org.dpstream.service.config.ConfigLoader.load(Path.of(EXAMPLE)))
        .all().size(), operations, "every ACL is in one command");
  }

  @Test
  void withoutTheClusterTheCommandsNameShellVariables() {
    CommandRun run = run("--config", EXAMPLE, "--principal", "User:reader", "--role", "releases-reader");
    assertEquals(List.of("# Read: the releases: the private output, the one topic a reader of results needs",
        "kafka-acls.sh --bootstrap-server \"$BOOTSTRAP\" --command-config \"$ADMIN_CONFIG\" --add --allow-principal"
            + " User:reader --allow-host '*' --operation Read --topic dp.releases"), run.out().lines().toList());
  }

  @Test
  void theTableHasOneRowPerAcl() {
    CommandRun run = run("--config", RepositoryFiles.root().resolve("config/dda-node.yaml").toString(), "--principal",
        "User:node", "--role", "dda-node", "--format", "table");
    assertEquals(0, run.exitCode(), run.err());
    List<String> rows = run.out().lines().toList();
    assertEquals("| resource | name | pattern | operation | why |", rows.get(0));
    assertEquals(2 + 8, rows.size(), run.out());
    assertTrue(rows.contains("| topic | `dp.dda.models` | literal | Write | each node publishes its final model |"));
  }

  @Test
  void badInputIsOneLineAndExitCodeTwo() {
    assertEquals(new CommandRun(2, "", "acls: --principal must be TYPE:NAME, e.g. User:dpstream, got 'dpstream'\n"),
        run("--config", EXAMPLE, "--principal", "dpstream"));
    assertEquals(new CommandRun(2, "", "acls: --role must be service, releases-reader or dda-node, got 'admin'\n"),
        run("--config", EXAMPLE, "--principal", "User:x", "--role", "admin"));
    assertEquals(new CommandRun(2, "", "acls: --format must be kafka-acls or table, got 'json'\n"),
        run("--config", EXAMPLE, "--principal", "User:x", "--format", "json"));
    assertEquals(new CommandRun(2, "", "acls: --apply needs --bootstrap-server and --command-config (an administrator's"
        + " client settings)\n"), run("--config", EXAMPLE, "--principal", "User:x", "--apply"));
    CommandRun missing = run("--config", "no-such.yaml", "--principal", "User:x");
    assertEquals(2, missing.exitCode());
    assertEquals("acls: config file no-such.yaml does not exist\n", missing.err());
  }

  private static CommandRun run(String... arguments) {
    return CommandRun.serviceCommand("acls", arguments);
  }
}
