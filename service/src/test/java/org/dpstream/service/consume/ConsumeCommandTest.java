package org.dpstream.service.consume;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.dpstream.service.testing.CommandRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ConsumeCommandTest {

  @TempDir Path directory;

  @Test
  void committedOnlyUnlessTheUserSaysOtherwiseAndTheBootstrapOptionWins() throws Exception {
    Path file = directory.resolve("client.properties");
    Files.writeString(file, "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n"
        + "bootstrap.servers=from-file:9092\nclient.id=from-file\n");
    ConsumeCommand command = new ConsumeCommand();
    new CommandLine(command).parseArgs("--bootstrap-server", "b:9092", "--topic", "dp.releases",
        "--consumer-config", file.toString(), "--consumer-property", "client.id=from-option",
        "--consumer-property", "sasl.mechanism=PLAIN");
    Map<String, Object> settings = command.clientSettings();
    assertEquals("read_committed", settings.get("isolation.level"));
    assertEquals(false, settings.get("enable.auto.commit"));
    assertEquals(false, settings.get("allow.auto.create.topics"));
    assertEquals("SASL_SSL", settings.get("security.protocol"));
    assertEquals("PLAIN", settings.get("sasl.mechanism"));
    assertEquals("from-option", settings.get("client.id"));
    assertEquals("b:9092", settings.get("bootstrap.servers"));
  }

  @Test
  void badOptionsAreOneLineAndExitCodeTwoBeforeAnyConnection() {
    assertEquals(List.of("consume: --max-messages must be at least 1, got 0"),
        run(2, "--bootstrap-server", "b:9092", "--topic", "t", "--max-messages", "0"));
    Path missing = directory.resolve("missing.properties");
    assertEquals(List.of("consume: --command-config " + missing + " is not a file"),
        run(2, "--bootstrap-server", "b:9092", "--topic", "t", "--command-config", missing.toString()));
    assertEquals(List.of("consume: --command-config " + missing + " is not a file"),
        run(2, "--bootstrap-server", "b:9092", "--topic", "t", "--consumer-config", missing.toString()),
        "--consumer-config is the same option");
    assertEquals(List.of("consume: Invalid value bogus for configuration isolation.level: String must be one of:"
            + " read_committed, read_uncommitted"),
        run(2, "--bootstrap-server", "b:9092", "--topic", "t", "--consumer-property", "isolation.level=bogus"));
  }

  private static List<String> run(int expectedExitCode, String... args) {
    CommandRun run = CommandRun.serviceCommand("consume", args);
    assertEquals(expectedExitCode, run.exitCode(), run.err());
    return run.errLines();
  }
}
