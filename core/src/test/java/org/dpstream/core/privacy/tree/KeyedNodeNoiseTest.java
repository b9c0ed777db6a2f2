package org.dpstream.core.privacy.tree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;

class KeyedNodeNoiseTest {

  private static final KeyedNodeNoise NOISE = new KeyedNodeNoise(
      new KeyedNoiseSource(TestKeys.seeded(8)).forStream("tree", "keyed"), IidVectorNoise.gaussian(2, 3.0),
      Lattice.ofPowerOfTwo(-4));

  /** A sum of another dimension is refused whole, not filled in part. */
  @Test
  void aSumOfAnotherDimensionIsRefused() {
    long[] longer = new long[3];
    assertThrows(IllegalArgumentException.class, () -> NOISE.add(0, 1, longer));
    assertArrayEquals(new long[3], longer);
  }

  /** The node's noise is regenerated from (epoch, node): subtracting it undoes adding it. */
  @Test
  void subtractUndoesAdd() {
    long[] sum = {11, -4};
    NOISE.add(2, 5, sum);
    NOISE.subtract(2, 5, sum);
    assertArrayEquals(new long[] {11, -4}, sum);
  }
}
