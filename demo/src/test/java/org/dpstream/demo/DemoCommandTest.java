package org.dpstream.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The demo's options, without starting a broker. */
class DemoCommandTest {

  @Test
  void kafkaPortDefaultsToAnyFreePortAndTakesAFixedOne() {
    DemoCommand byDefault = new DemoCommand();
    new CommandLine(byDefault).parseArgs();
    assertEquals(0, byDefault.kafkaPort);

    DemoCommand fixed = new DemoCommand();
    new CommandLine(fixed).parseArgs("--kafka-port", "19092");
    assertEquals(19092, fixed.kafkaPort);
  }

  @Test
  void aKafkaPortOutOfRangeIsAUsageError() {
    Run run = run("--kafka-port", "70000");
    assertEquals(2, run.exitCode());
    assertTrue(run.stderr().contains("--kafka-port must be in [0, 65535], got 70000"), run.stderr());
  }

  @Test
  void aKafkaPortInUseIsOneClearLineAndExitCode2(@TempDir Path out) throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      Run run = run("--kafka-port", Integer.toString(port), "--metrics-port", "0", "--out", out.toString());

      assertEquals(DemoCommand.PORT_IN_USE, run.exitCode(), run.stderr());
      assertTrue(run.stderr().contains("--kafka-port " + port + ": the port is in use on 127.0.0.1"), run.stderr());
      assertTrue(run.stdout().isEmpty(), run.stdout());
    }
  }

  private static Run run(String... args) {
    CommandLine cli = new CommandLine(new DemoCommand());
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    cli.setOut(new PrintWriter(stdout));
    cli.setErr(new PrintWriter(stderr));
    int exitCode = cli.execute(args);
    return new Run(exitCode, stdout.toString(), stderr.toString());
  }

  private record Run(int exitCode, String stdout, String stderr) {}
}
