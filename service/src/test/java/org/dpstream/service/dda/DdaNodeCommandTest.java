package org.dpstream.service.dda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.dpstream.service.testing.CommandRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DdaNodeCommandTest {

  /** Runs node 0 on a config of {@code nodes} nodes and the given privacy block, against a broker that is not there. */
  private static void assertExitsWithTwoBeforeTouchingKafka(Path dir, int nodes, String privacy, String reason)
      throws Exception {
    Path config = dir.resolve("dda.yaml");
    Files.writeString(config, String.join("\n", "runId: r", "nodes: " + nodes, "iota: 0.5", "rounds: 10",
        "privacy: " + privacy, "data: {shard: 'n{node}.csv', samplesPerNode: 5, dimension: 2}",
        "kafka: {bootstrap.servers: 'nowhere:9092'}", ""));
    CommandRun run = CommandRun.service("dda-node", "--node-id", "0", "--config", config.toString());
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains(reason), run.err());
  }

  @Test
  void anInvalidConfigExitsWithTwoAndSaysWhyBeforeTouchingKafka(@TempDir Path dir) throws Exception {
    assertExitsWithTwoBeforeTouchingKafka(dir, 3, "{epsilon: 1}", "n iota must be a positive integer");
  }

  @Test
  void aRunWhoseGuaranteeMissesItsTargetExitsWithTwoBeforeTouchingKafka(@TempDir Path dir) throws Exception {
    assertExitsWithTwoBeforeTouchingKafka(dir, 4, "{epsilon: 1, sigma: 0.01}", "weaker than privacy.epsilon");
  }

  @Test
  void aMissingConfigFileExitsWithTwo(@TempDir Path dir) {
    CommandRun run =
        CommandRun.service("dda-node", "--node-id", "0", "--config", dir.resolve("absent.yaml").toString());
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("does not exist"), run.err());
  }
}
