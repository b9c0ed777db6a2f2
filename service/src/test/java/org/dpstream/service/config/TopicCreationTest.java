package org.dpstream.service.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.dpstream.service.kafka.TopicNames;
import org.dpstream.service.kafka.TopicSpec;
import org.junit.jupiter.api.Test;

class TopicCreationTest {

  @Test
  void theDefaultsCreateTheContinualReleaseTopicsWithSevenDaysOfRejectedRecords() {
    List<TopicSpec> specs = TopicCreation.defaults().specs(TopicNames.defaults(), false);
    assertEquals(List.of(
        new TopicSpec("dp.samples", 3, Map.of()),
        new TopicSpec("dp.releases", 3, Map.of()),
        new TopicSpec("dp.rejected", 3, Map.of("retention.ms", "604800000"))), specs);
  }

  @Test
  void banditsAddTheirTopicsAndConfigsOverrideTheDefaults() {
    TopicCreation creation = new TopicCreation(true, 6, 3, Map.of(
        "rejected", Map.of("retention.ms", "86400000"),
        "releases", Map.of("retention.ms", "-1", "cleanup.policy", "delete")));
    List<TopicSpec> specs = creation.specs(TopicNames.defaults(), true);
    assertEquals(List.of("dp.samples", "dp.releases", "dp.rejected", "dp.contexts", "dp.decisions", "dp.rewards",
        "dp.contexts.decided"), specs.stream().map(TopicSpec::name).toList());
    assertEquals(Map.of("retention.ms", "86400000"), specs.get(2).configs());
    assertEquals(Map.of("retention.ms", "-1", "cleanup.policy", "delete"), specs.get(1).configs());
    specs.forEach(spec -> assertEquals(6, spec.partitions(), spec.name()));
  }

  @Test
  void badSettingsNameTheirKey() {
    assertEquals("createTopics.replicationFactor must be -1 (broker default) or at least 1, got 0",
        assertThrows(IllegalArgumentException.class, () -> new TopicCreation(null, null, 0, null)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> new TopicCreation(null, 0, null, null));
    assertThrows(IllegalArgumentException.class, () -> new TopicCreation(null, null, null, Map.of("control", Map.of())));
  }
}
