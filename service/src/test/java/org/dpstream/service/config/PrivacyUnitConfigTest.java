package org.dpstream.service.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code privacyUnit:} of a model as written in YAML: event by default, {by: user, maxContributions: k} per person. */
class PrivacyUnitConfigTest {

  private static final String HEADER = "applicationId: a\nkafka:\n  bootstrap.servers: b:9092\n";

  private static String model(String accountant, String unit) {
    return HEADER + """
        models:
          - id: m
            dimension: 3
            loss: squared
            p: "2"
            radius: 1
            epsilon: 1
            delta: 1.0e-6
            horizon: 1000
            featureNormBound: 1
            labelBound: 1
            accountant: %s
        %s""".formatted(accountant, unit == null ? "" : "    privacyUnit: " + unit + "\n");
  }

  private static ModelRegistry.Entry entry(String accountant, String unit) {
    return ConfigLoader.parse(model(accountant, unit), "test").registry().find("m").orElseThrow();
  }

  @Test
  void eventIsTheDefaultAndKeepsOneParticipation() {
    for (String unit : new String[] {null, "event", "Event"}) {
      ModelRegistry.Entry entry = entry("zcdp", unit);
      assertEquals(PrivacyUnit.EVENT, entry.unit());
      assertEquals(1, entry.spec().participations());
    }
  }

  @Test
  void byUserSetsKInTheSpecAndReadsTheFieldOrAHeader() {
    ModelRegistry.Entry field = entry("zcdp", "{by: user, maxContributions: 5}");
    assertTrue(field.unit().byUser());
    assertEquals(5, field.unit().maxContributions());
    assertNull(field.unit().header());
    assertEquals(5, field.spec().participations());
    ModelRegistry.Entry header = entry("auto", "{by: user, maxContributions: 2, header: x-user}");
    assertEquals("x-user", header.unit().header());
    assertEquals(2, header.spec().participations());
  }

  @Test
  void aWrongUnitIsRefusedNamingTheModelAndTheKey() {
    String[][] cases = {
        {"zcdp", "person", "privacyUnit must be event"},
        {"zcdp", "{by: user}", "needs maxContributions"},
        {"zcdp", "{by: user, maxContributions: 0}", "at least 1"},
        {"zcdp", "{by: user, maxContributions: 2.5}", "needs maxContributions"},
        {"zcdp", "{by: device, maxContributions: 2}", "privacyUnit.by must be user"},
        {"zcdp", "{by: user, maxContributions: 2, window: 3}", "no key window"},
        {"zcdp", "{by: user, maxContributions: 2, header: \" \"}", "blank"},
        {"paper", "{by: user, maxContributions: 2}", "accounted in zCDP"},
    };
    for (String[] c : cases) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> entry(c[0], c[1]), c[1]);
      assertTrue(e.getMessage().contains("model m") && e.getMessage().contains(c[2]), c[1] + ": " + e.getMessage());
    }
  }
}
