package org.dpstream.core.privacy.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** The certified cell CDF at the edges of its precision range (its bulk is tested through the sampler's table). */
class GaussianCellCdfTest {

  /** One bit: 2 F_t is bracketed by its floor and ceiling, 0 and 1 for F_0 = 0.0031..., 1 and 2 for the last cell. */
  @Test
  void oneBitOfPrecisionBracketsTheHalves() {
    BigInteger[][] bounds = GaussianCellCdf.bounds(1);
    int last = GaussianCellCdf.CELLS - 1;
    assertEquals(BigInteger.ZERO, bounds[0][0]);
    assertEquals(BigInteger.ONE, bounds[1][0]);
    assertEquals(BigInteger.ONE, bounds[0][last]);
    assertEquals(BigInteger.TWO, bounds[1][last]);
  }

  @Test
  void refusesAPrecisionBelowOneBit() {
    assertEquals("precision must be positive: 0",
        assertThrows(IllegalArgumentException.class, () -> GaussianCellCdf.bounds(0)).getMessage());
  }
}
