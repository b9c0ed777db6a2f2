package org.dpstream.core.erm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

class BlockSamplingTest {

  private static final BlockPartition TWO_BLOCKS = BlockPartition.of(4, new int[][] {{0, 1}, {2, 3}});
  private static final double[] M = {10, 1, 1, 1};

  @Test
  void importanceProbabilitiesOfAWorkedExample() {
    // A worked example: q = (10/11, 1/11), p = (10/11, 10/11, 1/11, 1/11),
    // max_j M_j / p_j = 11 = sum of block maxima (importance) vs 20 = b M_max (uniform).
    BlockSampling importance = BlockSampling.importance(TWO_BLOCKS, M);
    assertEquals(10.0 / 11, importance.blockProbability(0), 1e-15);
    assertEquals(1.0 / 11, importance.inclusionProbability(3), 1e-15);
    assertEquals(11.0, maxRatio(importance), 1e-12);
    assertEquals(20.0, maxRatio(BlockSampling.uniform(TWO_BLOCKS)), 1e-12);
  }

  @Test
  void sigmaSSquaredOfTheWorkedExampleIsIndependentOfQ() {
    // L_{A1} = 1, L_{A2} = 0.5: Sigma^2 = 1/10 + 1/1 + 0.25/1 + 0.25/1 = 1.6.
    assertEquals(1.6, DpSkgd.sigmaSSquared(TWO_BLOCKS, new double[] {1, 0.5}, M), 1e-15);
  }

  @Test
  void importanceEqualsUniformWhenAllSmoothnessConstantsAreEqual() {
    BlockPartition partition = BlockPartition.contiguous(6, 3);
    BlockSampling importance = BlockSampling.importance(partition, new double[] {2, 2, 2, 2, 2, 2});
    BlockSampling uniform = BlockSampling.uniform(partition);
    UniformRandomProvider a = RandomSource.XO_RO_SHI_RO_128_PP.create(3L);
    UniformRandomProvider b = RandomSource.XO_RO_SHI_RO_128_PP.create(3L);
    for (int draw = 0; draw < 1000; draw++) {
      assertEquals(uniform.sampleBlock(a), importance.sampleBlock(b));
    }
    for (int u = 0; u < 3; u++) {
      assertEquals(1.0 / 3, importance.blockProbability(u), 0);
    }
  }

  @Test
  void nonUniformDrawsFollowTheirProbabilities() {
    BlockSampling importance = BlockSampling.importance(TWO_BLOCKS, M);
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(4L);
    int first = 0;
    int draws = 200_000;
    for (int i = 0; i < draws; i++) {
      first += importance.sampleBlock(rng) == 0 ? 1 : 0;
    }
    assertEquals(10.0 / 11, first / (double) draws, 0.003);
    assertSame(BlockSampling.class, importance.getClass());
  }

  private static double maxRatio(BlockSampling sampling) {
    double max = 0;
    for (int j = 0; j < M.length; j++) {
      max = Math.max(max, M[j] / sampling.inclusionProbability(j));
    }
    return max;
  }
}
