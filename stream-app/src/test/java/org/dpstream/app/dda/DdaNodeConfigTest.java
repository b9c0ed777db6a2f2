package org.dpstream.app.dda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.dpstream.app.config.ConfigLoader;
import org.dpstream.core.distributed.DdaRunSpec;
import org.dpstream.core.distributed.DpDdaAccountant;
import org.dpstream.core.distributed.StepSchedule;
import org.junit.jupiter.api.Test;

class DdaNodeConfigTest {

  private static final String MINIMAL = String.join("\n",
      "runId: r1",
      "nodes: 4",
      "iota: 0.5",
      "rounds: 100",
      "privacy: {epsilon: 1.0}",
      "data: {shard: 'shards/n{node}.csv', samplesPerNode: 10, dimension: 3}",
      "kafka: {bootstrap.servers: 'b:9092'}",
      "");

  private static DdaNodeConfig parse(String yaml) {
    return ConfigLoader.parse(yaml, "test.yaml", DdaNodeConfig.class);
  }

  @Test
  void theAnnotatedExampleParsesIntoAValidRun() {
    DdaNodeConfig config = ConfigLoader.read(Path.of("..", "config", "dda-node.yaml"), DdaNodeConfig.class);
    DdaRunSpec spec = config.runSpec();
    assertEquals(4, spec.nodeCount());
    assertEquals(2000, spec.rounds());
    assertEquals("data/dda/node-3.csv", config.data().shardOf(3));
    assertEquals(Duration.ofMinutes(10), config.roundTimeoutDuration());
  }

  @Test
  void defaultsFollowThePaperAndClaimNoAmplificationOverKafka() {
    DdaNodeConfig config = parse(MINIMAL);
    DdaRunSpec spec = config.runSpec();
    assertEquals(StepSchedule.stronglyConvex(20), spec.settings().schedule());
    assertEquals(5e-4, spec.settings().prox().regularizer().l2Weight());
    assertEquals("observable", config.privacy().activeSet());
    // sigma is Theorem 1's calibration with the proof-closing constant, whatever the visibility
    double expected = DpDdaAccountant.of(1.0, 10, 0.5, 0.01, 100).calibrateSigma(1.0, DpDdaAccountant.NoiseConstant.PROOF_CLOSES);
    assertEquals(expected, spec.settings().sigma());
    // an observable active set gets no credit for node sampling, so the obtained epsilon is larger
    double hidden = parse(MINIMAL.replace("{epsilon: 1.0}", "{epsilon: 1.0, activeSet: hidden}")).privacyReport().epsilon();
    assertTrue(config.privacyReport().epsilon() > hidden, config.privacyReport().describe());
  }

  @Test
  void theL1ObjectiveTakesTheGeneralConvexScheduleOfThePaper() {
    DdaRunSpec spec = parse(MINIMAL + "objective: {regularizer: l1, lambda: 0.001}\n").runSpec();
    assertEquals(StepSchedule.generalConvex(0.01), spec.settings().schedule());
  }

  @Test
  void everyChangeOfPublicConfigurationChangesTheFingerprint() {
    String base = parse(MINIMAL).runSpec().fingerprint();
    assertEquals(base, parse(MINIMAL).runSpec().fingerprint());
    assertNotEquals(base, parse(MINIMAL.replace("runId: r1", "runId: r2")).runSpec().fingerprint());
    assertNotEquals(base, parse(MINIMAL + "objective: {lambda: 5.0000001e-4}\n").runSpec().fingerprint());
    assertNotEquals(base, parse(MINIMAL.replace("{epsilon: 1.0}", "{epsilon: 1.0, sigma: 3.0}")).runSpec().fingerprint());
    assertNotEquals(base, parse(MINIMAL + "gossip: metropolis\n").runSpec().fingerprint());
    assertNotEquals(base, parse(MINIMAL.replace("rounds: 100", "rounds: 101")).runSpec().fingerprint());
  }

  @Test
  void mistakesAreNamed() {
    assertMessage("{node}", MINIMAL.replace("n{node}", "n0"));
    assertMessage("regularizer", MINIMAL + "objective: {regularizer: l3}\n");
    assertMessage("radius", MINIMAL + "objective: {constraint: ball}\n");
    assertMessage("n iota", MINIMAL.replace("iota: 0.5", "iota: 0.3"));
    assertMessage("roundTimeout", MINIMAL + "roundTimeout: 10 minutes\n");
    assertMessage("bootstrap.servers", MINIMAL.replace("kafka: {bootstrap.servers: 'b:9092'}", "kafka: {}"));
    assertMessage("activeSet", MINIMAL.replace("{epsilon: 1.0}", "{epsilon: 1.0, activeSet: secret}"));
    assertMessage("unknown key \"round\"", MINIMAL + "round: 3\n");
  }

  private static void assertMessage(String expected, String yaml) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(yaml).runSpec());
    assertTrue(e.getMessage().contains(expected), () -> "expected '" + expected + "' in: " + e.getMessage());
  }
}
