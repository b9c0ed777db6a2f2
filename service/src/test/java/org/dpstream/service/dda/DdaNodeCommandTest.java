package org.dpstream.service.dda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dpstream.service.ServiceCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class DdaNodeCommandTest {

  private static int run(StringWriter err, String... args) {
    CommandLine cli = ServiceCli.commandLine();
    cli.setErr(new PrintWriter(err, true));
    cli.setOut(new PrintWriter(new StringWriter(), true));
    return cli.execute(args);
  }

  @Test
  void anInvalidConfigExitsWithTwoAndSaysWhyBeforeTouchingKafka(@TempDir Path dir) throws Exception {
    Path config = dir.resolve("dda.yaml");
    Files.writeString(config, String.join("\n", "runId: r", "nodes: 3", "iota: 0.5", "rounds: 10",
        "privacy: {epsilon: 1}", "data: {shard: 'n{node}.csv', samplesPerNode: 5, dimension: 2}",
        "kafka: {bootstrap.servers: 'nowhere:9092'}", ""));
    StringWriter err = new StringWriter();
    assertEquals(2, run(err, "dda-node", "--node-id", "0", "--config", config.toString()));
    assertTrue(err.toString().contains("n iota must be a positive integer"), err.toString());
  }

  @Test
  void aRunWhoseGuaranteeMissesItsTargetExitsWithTwoBeforeTouchingKafka(@TempDir Path dir) throws Exception {
    Path config = dir.resolve("dda.yaml");
    Files.writeString(config, String.join("\n", "runId: r", "nodes: 4", "iota: 0.5", "rounds: 10",
        "privacy: {epsilon: 1, sigma: 0.01}", "data: {shard: 'n{node}.csv', samplesPerNode: 5, dimension: 2}",
        "kafka: {bootstrap.servers: 'nowhere:9092'}", ""));
    StringWriter err = new StringWriter();
    assertEquals(2, run(err, "dda-node", "--node-id", "0", "--config", config.toString()));
    assertTrue(err.toString().contains("weaker than privacy.epsilon"), err.toString());
  }

  @Test
  void aMissingConfigFileExitsWithTwo(@TempDir Path dir) {
    StringWriter err = new StringWriter();
    assertEquals(2, run(err, "dda-node", "--node-id", "0", "--config", dir.resolve("absent.yaml").toString()));
    assertTrue(err.toString().contains("does not exist"), err.toString());
  }
}
