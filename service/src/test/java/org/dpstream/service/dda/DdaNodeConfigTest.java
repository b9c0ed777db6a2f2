package org.dpstream.service.dda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.dpstream.core.distributed.DdaRunSpec;
import org.dpstream.core.distributed.DpDdaAccountant;
import org.dpstream.core.distributed.DpDdaPrivacyReport;
import org.dpstream.core.distributed.StepSchedule;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.service.config.ConfigLoader;
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
    assertTrue(config.runPrivacy().ledger().spentEpsilon() <= 1.0, config.runPrivacy().report().describe());
  }

  @Test
  void theLedgerReservesTheWholeRunAsTheLemmaChainStatesIt() {
    DdaNodeConfig config = parse(MINIMAL);
    PrivacyLedger ledger = config.runPrivacy().ledger();
    DpDdaPrivacyReport report = config.runPrivacy().report();
    assertEquals(new PrivacyBudget(1.0, report.delta()), ledger.budget());
    assertEquals(report.epsilon(), ledger.spentEpsilon());
    assertEquals(report.delta(), ledger.spentDelta());
    assertEquals(100, ledger.horizon());
    assertEquals("dp-dda-theorem1/proof-closes/active-set-observable", ledger.accountant());
  }

  @Test
  void aRunWhoseGuaranteeMissesPrivacyEpsilonIsRefusedNamingTheKeys() {
    // sigma = 0.5 is far below Theorem 1's (about 9 here): the chain gives eps well above 1
    String weakYaml = MINIMAL.replace("{epsilon: 1.0}", "{epsilon: 1.0, sigma: 0.5, compositionDelta: 1.0e-6}");
    DdaNodeConfig weak = parse(weakYaml);
    weak.runSpec();
    assertTrue(weak.runPrivacy().report().epsilon() > 1, weak.runPrivacy().report().describe());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, weak.runPrivacy()::ledger);
    assertTrue(e.getMessage().contains("weaker than privacy.epsilon = 1.0") && e.getMessage().contains("privacy.sigma"),
        e.getMessage());
    // the sigma the message suggests is the report's calibration, and a run with it is accepted
    double suggested = weak.runPrivacy().accountant().calibrateSigmaToReport(1.0);
    assertTrue(e.getMessage().contains(String.format(java.util.Locale.ROOT, "privacy.sigma to %.6g", suggested)),
        e.getMessage());
    DdaNodeConfig fixed = parse(weakYaml.replace("sigma: 0.5", "sigma: " + suggested));
    assertTrue(fixed.runPrivacy().ledger().spentEpsilon() <= 1.0);
  }

  @Test
  void aRunWithoutAnyGuaranteeIsRefused() {
    // the paper's composition slack sqrt(T eps'^2) reaches 1 at this sigma: delta = 1
    DdaNodeConfig none = parse(MINIMAL.replace("{epsilon: 1.0}", "{epsilon: 1.0, sigma: 0.5}"));
    assertEquals(1.0, none.runPrivacy().report().delta());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, none.runPrivacy()::ledger);
    assertTrue(e.getMessage().contains("no guarantee at all") && e.getMessage().contains("privacy.compositionDelta"),
        e.getMessage());
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
