package org.dpstream.core.online.baseline;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.junit.jupiter.api.Test;

/** The bounds and premises the batch baselines' calibrations share, by hand at their edges. */
class SensitivitiesTest {

  /** The margin over the clip bound is max(2^-40, d 2^-48) relative: 2^-40 up to d = 256, d 2^-48 above. */
  @Test
  void exactNormBoundAddsTheSummationMargin() {
    assertEquals(Math.nextUp(3 * (1 + 0x1p-40)), Sensitivities.exactNormBound(3, 10));
    assertEquals(Math.nextUp(3 * (1 + 1024 * 0x1p-48)), Sensitivities.exactNormBound(3, 1024));
    assertTrue(Sensitivities.exactNormBound(3, 1024) > Sensitivities.exactNormBound(3, 10));
  }

  /** c = 1 exactly up to and at exponent 2, d^(1/2 - 1/q) rounded up above it. */
  @Test
  void euclideanScalesAreOneUpToExponentTwo() {
    assertEquals(1.0, Sensitivities.euclideanOverDual(2, 100));
    assertEquals(1.0, Sensitivities.euclideanOverPrimal(2, 100));
    assertEquals(1.0, Sensitivities.euclideanOverPrimal(1.5, 100));
    double quarter = Math.pow(100, 0.25);
    assertTrue(Sensitivities.euclideanOverDual(4, 100) > quarter);
    assertEquals(quarter, Sensitivities.euclideanOverDual(4, 100), 1e-9 * quarter);
    assertTrue(Sensitivities.euclideanOverPrimal(4, 100) > quarter);
    assertEquals(quarter, Sensitivities.euclideanOverPrimal(4, 100), 1e-9 * quarter);
  }

  /** The baselines are proved for epsilon up to 1 and delta above 0, with a positive finite step-size scale. */
  @Test
  void provedRangeIsEnforcedAtItsEdges() {
    assertDoesNotThrow(() -> Sensitivities.requireProvedRange(1, new PrivacyBudget(1, 1e-5), "the paper"));
    assertThrows(IllegalArgumentException.class,
        () -> Sensitivities.requireProvedRange(0, new PrivacyBudget(1, 1e-5), "the paper"));
    assertThrows(IllegalArgumentException.class,
        () -> Sensitivities.requireProvedRange(Double.POSITIVE_INFINITY, new PrivacyBudget(1, 1e-5), "the paper"));
    assertThrows(IllegalArgumentException.class,
        () -> Sensitivities.requireProvedRange(1, new PrivacyBudget(Math.nextUp(1.0), 1e-5), "the paper"));
    IllegalArgumentException pure = assertThrows(IllegalArgumentException.class,
        () -> Sensitivities.requireProvedRange(1, new PrivacyBudget(1, 0), "the paper"));
    assertEquals("the paper needs delta > 0", pure.getMessage());
  }
}
