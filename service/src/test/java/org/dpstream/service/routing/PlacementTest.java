package org.dpstream.service.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.junit.jupiter.api.Test;

class PlacementTest {

  @Test
  void homeIsWhatTheJavaClientsDefaultPartitionerPicksForTheIdAsAStringKey() {
    for (int partitions : new int[] {1, 2, 3, 6, 7, 64}) {
      for (String id : new String[] {"lr-pinf", "lr-p1.5", "lr-p1", "offers", "modèle-α", ""}) {
        int expected = BuiltInPartitioner.partitionForKey(id.getBytes(StandardCharsets.UTF_8), partitions);
        assertEquals(new Placement(expected, partitions), Placement.of(id, partitions), id + " of " + partitions);
      }
    }
  }

  @Test
  void theRoutingPartitionerWritesEveryIdToItsHomeAndKeylessRecordsToPartitionZero() {
    RoutingPartitioner partitioner = new RoutingPartitioner();
    Set<Integer> used = new HashSet<>();
    for (int i = 0; i < 100; i++) {
      String id = "model-" + i;
      Optional<Set<Integer>> chosen = partitioner.partitions("t", id, new byte[0], 6);
      assertEquals(Optional.of(Set.of(Placement.of(id, 6).partition())), chosen);
      used.add(chosen.orElseThrow().iterator().next());
    }
    assertEquals(6, used.size(), "100 ids spread over all 6 partitions");
    assertEquals(Optional.of(Set.of(0)), partitioner.partitions("t", null, null, 6));
  }

  @Test
  void placementsAreCheckedAndNamedForMessages() {
    assertThrows(IllegalArgumentException.class, () -> new Placement(6, 6));
    assertThrows(IllegalArgumentException.class, () -> new Placement(-1, 6));
    assertThrows(IllegalArgumentException.class, () -> Placement.of("m", 0));
    assertEquals("routing partition 2 of 6", new Placement(2, 6).toString());
  }

  @Test
  void noiseIsScopedByPlacement() {
    KeyedNoiseSource key = new KeyedNoiseSource(NoiseKey.ofBytes(new byte[32]));
    long here = new Placement(2, 6).noise(key).forStream("tree", "m").at(0, 1).nextLong();
    long again = new Placement(2, 6).noise(key).forStream("tree", "m").at(0, 1).nextLong();
    long elsewhere = new Placement(3, 6).noise(key).forStream("tree", "m").at(0, 1).nextLong();
    long otherCount = new Placement(2, 7).noise(key).forStream("tree", "m").at(0, 1).nextLong();
    long unscoped = key.forStream("tree", "m").at(0, 1).nextLong();
    assertEquals(here, again);
    assertNotEquals(here, elsewhere);
    assertNotEquals(here, otherCount);
    assertNotEquals(here, unscoped);
  }
}
