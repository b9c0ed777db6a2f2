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

  /**
   * The tail bound needs 2N + 1 &lt;= 2^17 summed cells. At 47,193 bits N would be 65,536 (2N + 1 = 2^17 + 1): refused
   * before any summing; 47,192 bits (N = 65,535) would still be certified.
   */
  @Test
  void refusesAPrecisionBeyondTheTailBound() {
    assertEquals("precision 47193 is beyond the cell table's tail bound",
        assertThrows(IllegalStateException.class, () -> GaussianCellCdf.bounds(47_193)).getMessage());
  }
}
