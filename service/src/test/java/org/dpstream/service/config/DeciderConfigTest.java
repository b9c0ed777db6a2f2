package org.dpstream.service.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DeciderConfigTest {

  @Test
  void theDefaultsAreDecidersWithTheApiAndTheKafkaPath() {
    DeciderConfig defaults = DeciderConfig.DEFAULT;
    assertFalse(defaults.inTopology());
    assertEquals(9401, defaults.httpPort());
    assertEquals(0, defaults.httpThreads(), "one event loop per processor");
    assertTrue(defaults.contexts());
    assertEquals(200_000, defaults.memory());
    assertTrue(DeciderConfig.decidingInTopology().inTopology());
  }

  @Test
  void badValuesNameTheirKey() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new DeciderConfig(null, -2, null, null, null))
        .getMessage().startsWith("decider.httpPort"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new DeciderConfig(null, 70_000, null, null, null))
        .getMessage().startsWith("decider.httpPort"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new DeciderConfig(null, null, -1, null, null))
        .getMessage().startsWith("decider.httpThreads"));
    assertEquals(32, new DeciderConfig(null, null, 32, null, null).httpThreads(), "a configured count of handler threads still holds, as event loops");
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new DeciderConfig(null, null, null, null, 0))
        .getMessage().startsWith("decider.memory"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> new DeciderConfig(null, null, null, null, (1 << 29) + 1)).getMessage().startsWith("decider.memory"));
    assertEquals(1 << 29, new DeciderConfig(null, null, null, null, 1 << 29).memory());
  }

  @Test
  void theSectionIsReadFromTheConfigFile() {
    ServiceConfig config = ConfigLoader.parse("applicationId: a\ndecider:\n  httpPort: -1\n  contexts: false\n", "test");
    assertEquals(-1, config.decider().httpPort());
    assertFalse(config.decider().contexts());
    assertEquals("dp.contexts.decided", config.topics().decided());
  }
}
