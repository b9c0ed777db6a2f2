package org.dpstream.service.dda;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.errors.InterruptException;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.service.config.ConfigLoader;
import org.dpstream.service.serde.DpSerdes;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dpstream dda-node --node-id i --config FILE}: one node of a DP-DDA run over Kafka (Mode 2). */
@Command(
    name = "dda-node",
    mixinStandardHelpOptions = true,
    description = {
      "Run one node of differentially private distributed dual averaging (DP-DDA) over Kafka.",
      "Every node gets the same config file and noise key (DPSTREAM_NOISE_KEY or DPSTREAM_NOISE_KEY_FILE) and"
          + " reads only its own data shard. A restarted node resumes from its last checkpoint.",
      "See docs/dda-nodes.md and config/dda-node.yaml."
    })
public final class DdaNodeCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--node-id", required = true, description = "This node's id, 0..n-1.")
  int nodeId;

  @Option(names = "--config", required = true, description = "YAML config file shared by all nodes.")
  Path config;

  @Option(names = "--out", description = "Also write the final model (a ModelRelease) to this JSON file.")
  Path out;

  @Override
  public Integer call() throws Exception {
    DdaNodeConfig nodeConfig;
    try {
      nodeConfig = ConfigLoader.read(config, DdaNodeConfig.class);
      nodeConfig.runSpec(); // validate everything before touching Kafka
      nodeConfig.runPrivacy().ledger(); // and refuse a run whose guarantee misses privacy.epsilon
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("dda-node: " + e.getMessage());
      return 2;
    }
    NoiseKeyRing keys;
    try {
      keys = NoiseKeyRing.fromEnvironment(System.getenv());
    } catch (IllegalArgumentException | IllegalStateException e) {
      spec.commandLine().getErr().println("dda-node: " + e.getMessage());
      return 2;
    }
    Thread main = Thread.currentThread();
    CountDownLatch finished = new CountDownLatch(1);
    // SIGTERM interrupts the node between or inside rounds; the clients then close. Its last checkpoint is
    // already durable, so nothing else needs saving.
    Thread hook = new Thread(() -> {
      main.interrupt();
      try {
        finished.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "dda-node-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      DdaNodeRunner.Result result = new DdaNodeRunner(nodeConfig, nodeId, keys).run();
      if (out != null) {
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null) {
          Files.createDirectories(parent);
        }
        Files.writeString(out, DpSerdes.modelRelease().toJson(result.release()) + "\n", StandardCharsets.UTF_8);
      }
      spec.commandLine().getOut().println("node " + nodeId + ": model " + result.release().getModelId() + " after "
          + result.release().getStep() + " rounds, eps=" + result.release().getLedger().getEpsilonSpent()
          + ", delta=" + result.release().getLedger().getDeltaSpent());
      return 0;
    } catch (InterruptException e) {
      spec.commandLine().getErr().println("dda-node " + nodeId + ": stopped; a restart resumes from the last checkpoint");
      return 130;
    } catch (IllegalArgumentException | IllegalStateException e) {
      spec.commandLine().getErr().println("dda-node " + nodeId + ": " + e.getMessage());
      return 1;
    } finally {
      finished.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running: it waits for the latch released above
      }
    }
  }
}
