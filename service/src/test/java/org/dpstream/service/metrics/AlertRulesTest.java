package org.dpstream.service.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * deploy/prometheus/alerts.yml is valid Prometheus (promtool check rules) and its alerts fire, and only
 * fire, as its unit tests on synthetic series say (promtool test rules alerts-test.yml: each case lists
 * the alerts expected, so an alert that fires where it should not fails too). Skipped, with the reason,
 * where promtool is not installed (.ci/run installs it when it can).
 */
class AlertRulesTest {

  private static final Path RULES = Path.of("..", "deploy", "prometheus");

  private static Path promtool() {
    Optional<Path> promtool = Promtool.find();
    assumeTrue(promtool.isPresent(), Promtool.MISSING.replace("/metrics is not linted", "alert rules are not checked"));
    return promtool.get();
  }

  @Test
  void theRulesAreValid() throws Exception {
    assertTrue(Files.isRegularFile(RULES.resolve("alerts.yml")));
    Promtool.Result result = Promtool.run(promtool(), RULES, "check", "rules", "alerts.yml");
    assertEquals(0, result.exitCode(), result.output());
    assertTrue(result.output().contains("SUCCESS: 8 rules found"), result.output());
  }

  @Test
  void theRulesPassTheirUnitTests() throws Exception {
    Promtool.Result result = Promtool.run(promtool(), RULES, "test", "rules", "alerts-test.yml");
    assertEquals(0, result.exitCode(), result.output());
  }
}
