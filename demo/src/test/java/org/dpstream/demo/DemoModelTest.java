package org.dpstream.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpstream.service.config.ModelConfig;
import org.junit.jupiter.api.Test;

/** The demo's models as the service is configured with them. */
class DemoModelTest {

  @Test
  void exactlyOneModelIsPerPersonAndItsHorizonIsWhatItsBoundLetsThrough() {
    assertEquals(1, DemoModel.defaults().stream().filter(DemoModel::perPerson).count());
    for (DemoModel model : DemoModel.defaults()) {
      ModelConfig config = model.toConfig(100_000);
      if (model.perPerson()) {
        assertTrue(config.unit().byUser());
        assertEquals(DemoModel.PERSON_MAX_CONTRIBUTIONS, config.unit().participations());
        // 100,000 samples: 1,818 full blocks of 55 (15 over the bound each) and 10 samples of persons sending 1..4.
        assertEquals(100_000 - 1_818 * 15, config.horizon());
      } else {
        assertFalse(config.unit().byUser());
        assertEquals(100_000, config.horizon());
      }
    }
  }
}
