package org.dpstream.service.bandit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpstream.bandit.Decision;
import org.junit.jupiter.api.Test;

/** A held reward shares the pending store with pending requests: it must read back whole and never be taken for one. */
class HeldRewardTest {

  @Test
  void readsBackWhatItWrote() {
    HeldReward held = new HeldReward(-0.25, 1_234L, Long.MAX_VALUE, "bändit-1", new byte[] {0, 7, -1});
    HeldReward read = HeldReward.decode(held.encode());
    assertEquals(-0.25, read.reward());
    assertEquals(1_234L, read.timestamp());
    assertEquals(Long.MAX_VALUE, read.dueAt());
    assertEquals("bändit-1", read.rejectionKey());
    assertArrayEquals(new byte[] {0, 7, -1}, read.rejection());
  }

  @Test
  void aMissingKeyStaysMissingAndAnEmptyOneEmpty() {
    assertNull(HeldReward.decode(new HeldReward(1, 0, 0, null, new byte[0]).encode()).rejectionKey());
    assertEquals("", HeldReward.decode(new HeldReward(1, 0, 0, "", new byte[0]).encode()).rejectionKey());
  }

  @Test
  void isToldApartFromAPendingRequest() {
    byte[] request = new PendingRequest(PendingRequest.Status.PENDING, 1, Decision.Phase.GREEDY, 3, 10, 20, 30,
        new double[] {1, 2}).encode();
    assertFalse(HeldReward.isHeld(request));
    assertFalse(HeldReward.isHeld(new byte[0]));
    assertTrue(HeldReward.isHeld(new HeldReward(0.5, 1, 2, "k", new byte[] {1}).encode()));
    assertThrows(IllegalStateException.class, () -> HeldReward.decode(request));
  }
}
