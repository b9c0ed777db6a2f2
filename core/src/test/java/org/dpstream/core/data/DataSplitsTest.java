package org.dpstream.core.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Arrays;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class DataSplitsTest {

  @Test
  void aSeedGivesOnePermutationOfTheIndices() {
    int[] order = DataSplits.shuffledIndices(1000, 7);
    assertArrayEquals(IntStream.range(0, 1000).toArray(), Arrays.stream(order).sorted().toArray());
    assertArrayEquals(order, DataSplits.shuffledIndices(1000, 7));
    // the chance that a uniform permutation of 1000 is the identity, or that two seeds agree, is 1/1000!
    assertFalse(Arrays.equals(IntStream.range(0, 1000).toArray(), order));
    assertFalse(Arrays.equals(order, DataSplits.shuffledIndices(1000, 8)));
  }
}
