package org.dpstream.service.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.dpstream.core.distributed.DdaRunSpec;
import org.dpstream.core.distributed.DdaSimulation;
import org.dpstream.core.erm.ErmDataset;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.config.ConfigLoader;
import org.dpstream.service.dda.DdaNodeConfig;
import org.dpstream.service.serde.DpSerdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mode 2 of DP-DDA against a real broker: four {@code dda-node} processes, each reading only its own shard
 * file, exchange their round messages through the gossip topic; one of them is killed with SIGKILL in the
 * middle of the run and restarted. Every node's published model must equal, bit for bit, the model of the
 * same node in the in-process simulation (Mode 1) on the same shards, key and run id: the kill, the
 * replayed rounds and the scheduling of four JVMs change nothing.
 */
class DdaNodesIT {

  private static final int NODES = 4;
  private static final int SAMPLES_PER_NODE = 40;
  private static final long ROUNDS = 400;
  private static final int KILLED_NODE = 2;
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(6);

  @RegisterExtension
  static final KafkaHarness kafka = KafkaHarness.perClass();

  @TempDir Path directory;

  @Test
  void fourNodesOverKafkaWithOneKilledAndRestartedMatchTheInProcessSimulationBitForBit() throws Exception {
    List<ErmDataset> shards = DdaRunFiles.syntheticShards(NODES, SAMPLES_PER_NODE, 2024L);
    DdaRunFiles.writeShards(shards, directory);
    Path configFile = directory.resolve("dda.yaml");
    Files.writeString(configFile, DdaRunFiles.config("it-dda-run", NODES, ROUNDS, shards, directory, "it",
        Map.of("bootstrap.servers", kafka.bootstrapServers())), StandardCharsets.UTF_8);
    DdaNodeConfig config = ConfigLoader.read(configFile, DdaNodeConfig.class);
    DdaRunSpec spec = config.runSpec();

    List<ServiceProcess> nodes = new ArrayList<>();
    try {
      for (int i = 0; i < NODES; i++) {
        nodes.add(startNode(i, configFile, "node-" + i + ".log"));
      }
      ServiceProcess victim = nodes.get(KILLED_NODE);
      long deadline = System.nanoTime() + RUN_TIMEOUT.toNanos();
      while (!victim.logContains("completed round 100 ")) {
        assertTrue(victim.isAlive(), () -> "node " + KILLED_NODE + " ended before round 100\n" + victim.logTail());
        assertTrue(System.nanoTime() < deadline, () -> "node " + KILLED_NODE + " never reached round 100\n" + victim.logTail());
        Thread.sleep(20);
      }
      victim.kill();
      ServiceProcess restarted = startNode(KILLED_NODE, configFile, "node-" + KILLED_NODE + "-restarted.log");
      nodes.set(KILLED_NODE, restarted);
      for (int i = 0; i < NODES; i++) {
        ServiceProcess node = nodes.get(i);
        assertEquals(0, node.awaitExit(RUN_TIMEOUT), node::logTail);
      }
      java.util.regex.Matcher resumed = java.util.regex.Pattern.compile("resuming after round (\\d+) ")
          .matcher(Files.readString(directory.resolve("node-" + KILLED_NODE + "-restarted.log")));
      assertTrue(resumed.find(), restarted::logTail);
      long resumedAfter = Long.parseLong(resumed.group(1));
      assertTrue(resumedAfter >= 100 && resumedAfter < ROUNDS,
          "the restarted node resumes from a checkpoint written after round 100, not from scratch: " + resumedAfter);
    } finally {
      nodes.forEach(ServiceProcess::close);
    }

    DdaSimulation reference = spec.simulation(shards, new KeyedNoiseSource(ItModels.noiseKey()));
    while (reference.completedRounds() < ROUNDS) {
      reference.runRound();
    }
    Map<String, ModelRelease> published = publishedModels(config, NODES);
    for (int i = 0; i < NODES; i++) {
      ModelRelease release = published.get(config.runId() + "/node-" + i);
      assertEquals(ROUNDS, release.getStep());
      double[] parameters = release.getParameters().stream().mapToDouble(Double::doubleValue).toArray();
      assertArrayEquals(reference.node(i).averagedModel(), parameters, 0.0, "node " + i + " differs from Mode 1");
    }
    assertFalse(java.util.Arrays.equals(reference.node(0).averagedModel(), new double[shards.get(0).dimension()]),
        "the compared models must not be trivially zero");
  }

  private ServiceProcess startNode(int node, Path configFile, String logName) {
    return ServiceProcess.startCommand(
        List.of("dda-node", "--node-id", Integer.toString(node), "--config", configFile.toString()),
        directory.resolve(logName));
  }

  private static Map<String, ModelRelease> publishedModels(DdaNodeConfig config, int expected) {
    CommittedTopicReader<ModelRelease> reader = new CommittedTopicReader<>(kafka.bootstrapServers(),
        config.topics().models(), 1, DpSerdes.modelRelease().deserializer());
    reader.awaitAtLeast(expected, Duration.ofSeconds(60));
    Map<String, ModelRelease> latest = new HashMap<>();
    for (ConsumerRecord<String, ModelRelease> record : reader.records()) {
      latest.put(record.key(), record.value());
    }
    assertEquals(expected, latest.size(), "one model per node: " + latest.keySet());
    return latest;
  }
}
