package org.dpstream.service.routing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class PlacedStateTest {

  private static final byte[] STATE = {9, 8, 7, 6, 5};

  @Test
  void aStateOpensWhereItWasCreated() {
    Placement here = new Placement(4, 6);
    assertArrayEquals(STATE, PlacedState.open("m", here, PlacedState.stamp(here, STATE)));
    assertArrayEquals(new byte[0], PlacedState.open("m", here, PlacedState.stamp(here, new byte[0])));
  }

  /** Stored states outlive builds: the stamp's bytes are pinned, for the first noise generation and a later one. */
  @Test
  void theStampsBytesArePinned() {
    Placement here = new Placement(4, 6);
    assertArrayEquals(new byte[] {0x44, 0x50, 0x70, 0x6C, 0, 0, 0, 4, 0, 0, 0, 6, 9, 8, 7, 6, 5},
        PlacedState.stamp(here, STATE));
    assertArrayEquals(new byte[] {0x44, 0x50, 0x70, 0x67, 0, 0, 0, 4, 0, 0, 0, 6, 0, 0, 1, 2, 9, 8, 7, 6, 5},
        PlacedState.stamp(here, 258, STATE));
    assertEquals(12, PlacedState.stampLength(0));
    assertEquals(16, PlacedState.stampLength(258));
    assertEquals(new PlacedState.Opened(258, STATE).generation(),
        PlacedState.openStamped("m", here, PlacedState.stamp(here, 258, STATE)).generation());
  }

  @Test
  void aStateCreatedInAnotherPartitionOrUnderAnotherCountIsRefused() {
    byte[] stored = PlacedState.stamp(new Placement(4, 6), STATE);
    var otherPartition = assertThrows(PlacedState.MisplacedStateException.class,
        () -> PlacedState.open("m", new Placement(3, 6), stored));
    assertTrue(otherPartition.getMessage().contains("created in routing partition 4 of 6"), otherPartition.getMessage());
    assertThrows(PlacedState.MisplacedStateException.class, () -> PlacedState.open("m", new Placement(4, 7), stored));
  }

  @Test
  void aStateWithoutPlacementOrWithACorruptOneIsRefused() {
    var unstamped = assertThrows(PlacedState.MisplacedStateException.class,
        () -> PlacedState.open("m", new Placement(0, 1), new byte[] {0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
    assertTrue(unstamped.getMessage().contains("carries no placement"), unstamped.getMessage());
    assertThrows(PlacedState.MisplacedStateException.class,
        () -> PlacedState.open("m", new Placement(0, 1), new byte[] {1, 2}));
    byte[] corrupt = ByteBuffer.allocate(12).putInt(0x4450_706C).putInt(5).putInt(2).array();
    assertThrows(PlacedState.MisplacedStateException.class, () -> PlacedState.open("m", new Placement(0, 1), corrupt));
  }
}
