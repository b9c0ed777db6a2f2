package org.dpstream.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DpstreamCliTest {

  private static String run(String... args) {
    CommandLine cli = DpstreamCli.commandLine();
    StringWriter out = new StringWriter();
    cli.setOut(new PrintWriter(out));
    assertEquals(0, cli.execute(args), "exit code of " + String.join(" ", args));
    return out.toString();
  }

  @Test
  void versionPrintsTheFilteredBuildVersion() {
    String printed = run("version").trim();
    assertTrue(printed.matches("dpstream \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?"), printed);
  }

  @Test
  void helpListsTheSubcommands() {
    String usage = run("--help");
    assertTrue(usage.contains("version"), usage);
    assertTrue(usage.startsWith("Usage: dpstream"), usage);
  }

  @Test
  void runAndVersionHaveHelp() {
    String run = run("run", "--help");
    assertTrue(run.startsWith("Usage: dpstream run") && run.contains("--config") && run.contains("--instance-id"), run);
    String version = run("version", "--help");
    assertTrue(version.startsWith("Usage: dpstream version"), version);
  }
}
