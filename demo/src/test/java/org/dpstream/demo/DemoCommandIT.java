package org.dpstream.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The demo end to end on a real embedded broker, with a tiny stream. */
@Timeout(90)
class DemoCommandIT {

  /** A port that was free a moment ago; the demo's own check fails the run if it was taken since. */
  private static int freePort() throws java.io.IOException {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  @Test
  void aShortDemoExitsCleanlyWithASummaryOfEveryModelAndAPlot(@TempDir Path out) throws Exception {
    CommandLine cli = new CommandLine(new DemoCommand());
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    cli.setOut(new PrintWriter(stdout));
    cli.setErr(new PrintWriter(stderr));

    int kafkaPort = freePort();

    int exitCode = cli.execute("--samples", "300", "--duration", "30s", "--metrics-port", "0",
        "--test-size", "500", "--bandit-requests", "400", "--kafka-port", Integer.toString(kafkaPort),
        "--out", out.toString());

    String summary = stdout.toString();
    assertEquals(0, exitCode, () -> "stdout:\n" + summary + "\nstderr:\n" + stderr);
    assertEquals("Kafka bootstrap: 127.0.0.1:" + kafkaPort, summary.lines().findFirst().orElse(""),
        "the broker's address, for kcat, is the first line on stdout");
    Path plot = out.resolve(DemoRun.PLOT_FILE);
    assertTrue(Files.size(plot) > 10_000, "a PNG with content at " + plot);
    for (DemoModel model : DemoModel.defaults()) {
      assertTrue(summary.contains(model.id()), model.id() + " missing from the summary:\n" + summary);
    }
    assertTrue(summary.contains("dp-tofw") && summary.contains("dp-pofw"), summary);
    // The person-level model: its guarantee per person, and exactly the samples past each person's 5th rejected.
    assertTrue(summary.contains("lr-user   (1, 1e-5)-DP per person, at most 5 samples each; "
        + DemoPersons.overTheBound(300, DemoModel.PERSON_MAX_CONTRIBUTIONS) + " samples over the bound rejected"),
        summary);
    assertTrue(summary.contains("CONTRIBUTION_LIMIT x" + DemoPersons.overTheBound(300, 5)), summary);
    // Every kind of bad input came back on dp.rejected with its reason.
    for (String reason : List.of("UNDECODABLE", "MISSING_FIELD", "WRONG_DIMENSION", "UNKNOWN_MODEL")) {
      assertTrue(summary.contains(reason), reason + " missing from the summary:\n" + summary);
    }
    Path regret = out.resolve(DemoBandit.PLOT_FILE);
    assertTrue(Files.size(regret) > 10_000, "a PNG of the bandit's regret at " + regret);
    assertTrue(summary.contains("Bandit " + DemoBandit.ID) && summary.contains("cumulative reward"), summary);
    assertTrue(summary.contains("regret / random arms' regret: "), summary);
    assertTrue(summary.contains("released step the decisions were made at"), summary);
    assertTrue(stderr.toString().contains("the simulated environment uses the Kafka path"), stderr::toString);
    try (Stream<Path> left = Files.list(out)) {
      assertEquals(java.util.Set.of(plot, regret), java.util.Set.copyOf(left.toList()), "only the plots are left behind");
    }
  }
}
