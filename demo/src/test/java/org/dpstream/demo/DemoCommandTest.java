package org.dpstream.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.dpstream.service.testing.CommandRun;
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
    CommandRun run = run("--kafka-port", "70000");
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("--kafka-port must be in [0, 65535], got 70000"), run.err());
  }

  @Test
  void aKafkaPortInUseIsOneClearLineAndExitCode2(@TempDir Path out) throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      CommandRun run = run("--kafka-port", Integer.toString(port), "--metrics-port", "0", "--out", out.toString());

      assertEquals(DemoCommand.PORT_IN_USE, run.exitCode(), run.err());
      assertTrue(run.err().contains("--kafka-port " + port + ": the port is in use on 127.0.0.1"), run.err());
      assertTrue(run.out().isEmpty(), run.out());
    }
  }

  private static CommandRun run(String... args) {
    return CommandRun.of(new CommandLine(new DemoCommand()), args);
  }
}
