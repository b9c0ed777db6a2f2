package org.dpstream.core.privacy.tree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Vectors of different dimensions are refused before any coordinate changes, shorter or longer alike. */
class LatticeVectorsTest {

  @Test
  void everyOperationRefusesAMismatchedDimension() {
    for (int other : new int[] {1, 3}) {
      long[] target = {5, 7};
      long[] mismatched = new long[other];
      assertThrows(IllegalArgumentException.class, () -> LatticeVectors.addInto(target, mismatched));
      assertThrows(IllegalArgumentException.class, () -> LatticeVectors.subtractFrom(target, mismatched));
      assertThrows(IllegalArgumentException.class, () -> LatticeVectors.sumInto(target, mismatched, new long[2]));
      assertThrows(IllegalArgumentException.class, () -> LatticeVectors.sumInto(target, new long[2], mismatched));
      assertArrayEquals(new long[] {5, 7}, target);
      assertArrayEquals(new long[other], mismatched);
    }
  }

  @Test
  void sumsAreExactAndOverflowFailsLoudly() {
    long[] target = {5, 7};
    LatticeVectors.addInto(target, new long[] {1, -2});
    LatticeVectors.subtractFrom(target, new long[] {3, 3});
    assertArrayEquals(new long[] {3, 2}, target);
    assertThrows(ArithmeticException.class, () -> LatticeVectors.addInto(new long[] {Long.MAX_VALUE}, new long[] {1}));
  }
}
