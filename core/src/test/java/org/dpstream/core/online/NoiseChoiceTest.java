package org.dpstream.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class NoiseChoiceTest {

  @Test
  void parsesTheConfigSpellingInAnyCaseAndNamesTheAcceptedValuesOtherwise() {
    assertEquals(NoiseChoice.CONTINUOUS, NoiseChoice.parse("continuous"));
    assertEquals(NoiseChoice.DISCRETE, NoiseChoice.parse(" Discrete "));
    assertEquals("noise must be continuous or discrete, got exact",
        assertThrows(IllegalArgumentException.class, () -> NoiseChoice.parse("exact")).getMessage());
    assertEquals("noise must be continuous or discrete, got null",
        assertThrows(IllegalArgumentException.class, () -> NoiseChoice.parse(null)).getMessage());
  }
}
