package org.dpstream.core.data;

import org.apache.commons.rng.sampling.ArraySampler;
import org.apache.commons.rng.sampling.PermutationSampler;
import org.apache.commons.rng.simple.RandomSource;

/** Seeded train / held-out splits: public randomness of the experiment, not privacy noise. */
public final class DataSplits {

  private DataSplits() {}

  /** A seeded permutation of 0..n-1 (the same for the same n and seed on every platform). */
  public static int[] shuffledIndices(int n, long seed) {
    int[] order = PermutationSampler.natural(n);
    ArraySampler.shuffle(RandomSource.XO_RO_SHI_RO_128_PP.create(seed), order);
    return order;
  }
}
