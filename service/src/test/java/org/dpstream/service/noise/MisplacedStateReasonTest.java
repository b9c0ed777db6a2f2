package org.dpstream.service.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.dpstream.service.bandit.BanditRejection;
import org.dpstream.service.topology.SampleRejection;
import org.junit.jupiter.api.Test;

/**
 * The placed-state store names a misplaced state by a plain string (this package may not import the processors'
 * reason enums); a rejected record's reason must still be one of the documented codes of both processors.
 */
class MisplacedStateReasonTest {

  @Test
  void theStoresReasonIsTheCodeOfBothProcessors() {
    assertEquals(SampleRejection.MISPLACED_STATE.name(), PlacedStateStore.MISPLACED_STATE);
    assertEquals(BanditRejection.MISPLACED_STATE.name(), PlacedStateStore.MISPLACED_STATE);
  }
}
