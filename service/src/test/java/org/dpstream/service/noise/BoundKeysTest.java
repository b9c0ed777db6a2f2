package org.dpstream.service.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.junit.jupiter.api.Test;

/** The gauge an operator removes a retired key by, and the refusals /ready lists. */
class BoundKeysTest {

  private static KeyedNoiseSource key(int seed) {
    byte[] material = new byte[32];
    java.util.Arrays.fill(material, (byte) seed);
    return new KeyedNoiseSource(NoiseKey.ofBytes(material));
  }

  @Test
  void theGaugeCountsTheStatesBoundToEachKeyOfTheRingByItsCheckValue() {
    KeyedNoiseSource primary = key(1);
    KeyedNoiseSource retired = key(2);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    BoundKeys bound = new BoundKeys();
    bound.register(registry, NoiseKeyRing.of(primary, List.of(retired)));
    bound.bind("model a", retired.keyCheck());
    bound.bind("bandit b", retired.keyCheck());
    bound.bind("model c", primary.keyCheck());
    assertEquals(2.0, registry.get(BoundKeys.GAUGE).tag("key", retired.keyCheck().hex()).tag("role", "retired")
        .gauge().value());
    bound.bind("model a", primary.keyCheck()); // past its epoch boundary
    bound.forget("bandit b"); // its task moved away
    assertEquals(0.0, registry.get(BoundKeys.GAUGE).tag("role", "retired").gauge().value());
    assertEquals(2.0, registry.get(BoundKeys.GAUGE).tag("role", "primary").gauge().value());
  }

  @Test
  void aRefusedStateIsListedOnceUntilItsTaskClears() {
    RefusedStates refused = new RefusedStates();
    RefusedStateException lost = new RefusedStateException(StateRefusal.STATE_LOST, "model m has no state");
    assertTrue(refused.refuse("model m", lost));
    assertTrue(!refused.refuse("model m", lost), "logged once, not once per record");
    assertEquals(List.of("model m refused (STATE_LOST): model m has no state"), refused.readinessProblems());
    refused.clear("model m");
    assertEquals(List.of(), refused.readinessProblems());
  }
}
