package org.dpstream.core.privacy.tree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.ConstantNodeNoise;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;

/** The two tree implementations, against each other and against closed forms. */
class TreeMechanismTest {

  private static final int D = 3;
  private static final Lattice LATTICE = Lattice.ofPowerOfTwo(-20);
  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(21));

  private static NodeNoise keyedGaussian(String stream, double sigma) {
    return new KeyedNodeNoise(SOURCE.forStream("tree", stream), IidVectorNoise.gaussian(D, sigma), LATTICE);
  }

  private static long[][] randomLeaves(int n, long seed) {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    long[][] leaves = new long[n][D];
    for (long[] leaf : leaves) {
      for (int i = 0; i < D; i++) {
        leaf[i] = rng.nextLong(-1L << 20, 1L << 20);
      }
    }
    return leaves;
  }

  private static long[][] releases(ContinualPrefixSum mechanism, long[][] leaves) {
    long[][] out = new long[leaves.length][D];
    for (int t = 0; t < leaves.length; t++) {
      mechanism.addAndRelease(leaves[t], out[t]);
    }
    return out;
  }

  private static long[][] exactPrefixSums(long[][] leaves) {
    long[][] sums = new long[leaves.length][D];
    long[] running = new long[D];
    for (int t = 0; t < leaves.length; t++) {
      for (int i = 0; i < D; i++) {
        running[i] += leaves[t][i];
      }
      sums[t] = running.clone();
    }
    return sums;
  }

  @Test
  void compactAndReferenceAgreeBitForBitWithKeyedNoiseAcrossEpochs() {
    long[][] leaves = randomLeaves(1000, 1);
    long horizon = 300; // 1000 leaves: three full trees and part of a fourth
    NodeNoise noise = keyedGaussian("agreement", 50.0);
    long[][] compact = releases(ContinualPrefixSum.compact(D, horizon, noise), leaves);
    long[][] reference = releases(
        ContinualPrefixSum.start(D, horizon, (d, epoch) -> new BinaryMechanism(d, epoch, noise)), leaves);
    for (int t = 0; t < leaves.length; t++) {
      assertArrayEquals(reference[t], compact[t], "release at t=" + (t + 1));
    }
  }

  @Test
  void compactAndReferenceAgreeBitForBitWithDiscreteNoiseAcrossEpochs() {
    long[][] leaves = randomLeaves(1000, 2);
    long horizon = 300;
    NodeNoise noise = DiscreteGaussianNodeNoise.onLattice(SOURCE.forStream("tree", "discrete"), D, 50.0, LATTICE);
    long[][] compact = releases(ContinualPrefixSum.compact(D, horizon, noise), leaves);
    long[][] reference = releases(
        ContinualPrefixSum.start(D, horizon, (d, epoch) -> new BinaryMechanism(d, epoch, noise)), leaves);
    long[][] exact = exactPrefixSums(leaves);
    for (int t = 0; t < leaves.length; t++) {
      assertArrayEquals(reference[t], compact[t], "release at t=" + (t + 1));
    }
    // Noise of sigma = 50 is 50 * 2^20 units: a release equal to the exact sum would mean no noise at all.
    assertTrue(compact[0][0] != exact[0][0] || compact[0][1] != exact[0][1], "noise is added");
  }

  @Test
  void withNoiseOffTheReleasesAreTheExactPrefixSums() {
    long[][] leaves = randomLeaves(777, 2);
    long[][] expected = exactPrefixSums(leaves);
    assertArrayEquals(expected, releases(ContinualPrefixSum.compact(D, 1 << 20, new ConstantNodeNoise(0)), leaves));
    assertArrayEquals(expected, releases(ContinualPrefixSum.compact(D, 100, new ConstantNodeNoise(0)), leaves));
  }

  @Test
  void withConstantNodeNoiseTheReleaseCarriesOneNoisePerSetBitOfT() {
    long c = 1000;
    long[][] leaves = randomLeaves(600, 3);
    long[][] exact = exactPrefixSums(leaves);
    long[][] released = releases(ContinualPrefixSum.compact(D, 1 << 20, new ConstantNodeNoise(c)), leaves);
    for (int t = 1; t <= leaves.length; t++) {
      for (int i = 0; i < D; i++) {
        assertEquals(exact[t - 1][i] + c * Long.bitCount(t), released[t - 1][i], "t=" + t);
      }
    }
  }

  /** Past the horizon a new tree runs over the new leaves, on top of the last release of the old one. */
  @Test
  void pastTheHorizonANewEpochContinuesFromTheLastRelease() {
    long c = 1000;
    int horizon = 5;
    long[][] leaves = randomLeaves(13, 4);
    long[][] exact = exactPrefixSums(leaves);
    ContinualPrefixSum mechanism = ContinualPrefixSum.compact(D, horizon, new ConstantNodeNoise(c));
    long[][] released = releases(mechanism, leaves);
    for (int t = 1; t <= leaves.length; t++) {
      long noiseNodes = 0;
      for (int rest = t; rest > 0; rest -= Math.min(rest, horizon)) {
        noiseNodes += Long.bitCount(Math.min(rest, horizon)); // full earlier trees end at popcount(5) = 2 nodes
      }
      for (int i = 0; i < D; i++) {
        assertEquals(exact[t - 1][i] + c * noiseNodes, released[t - 1][i], "t=" + t);
      }
    }
    assertEquals(2, mechanism.epoch());
    assertEquals(3, mechanism.stepsInEpoch());
    assertEquals(13, mechanism.totalSteps());
  }

  /**
   * The noise in the release at t is the sum of popcount(t) independent node draws, so its variance
   * is popcount(t) sigma^2 (plus at most popcount(t) gamma^2 / 4 of rounding, below 1e-10 here).
   * 4000 independent streams (distinct stream ids); each checked variance uses a two-sided
   * chi-square interval at alpha = 1e-5, so a fresh key would fail one of the 5 checks with
   * probability about 5e-5; the key is fixed, so the test is deterministic.
   */
  @Test
  void releaseNoiseVarianceIsPopcountTimesNodeVariance() {
    double sigma = 3.0;
    int streams = 4000;
    int[] checkedSteps = {1, 3, 7, 8, 31};
    int lastStep = 31;
    double[][] noiseAt = new double[checkedSteps.length][streams];
    long[] zero = new long[D];
    long[] release = new long[D];
    for (int s = 0; s < streams; s++) {
      ContinualPrefixSum mechanism = ContinualPrefixSum.compact(D, 1024, keyedGaussian("variance-" + s, sigma));
      for (int t = 1, k = 0; t <= lastStep; t++) {
        mechanism.addAndRelease(zero, release);
        if (k < checkedSteps.length && checkedSteps[k] == t) {
          noiseAt[k++][s] = LATTICE.toValue(release[0]);
        }
      }
    }
    ChiSquaredDistribution chi2 = ChiSquaredDistribution.of(streams - 1);
    for (int k = 0; k < checkedSteps.length; k++) {
      double expected = Long.bitCount(checkedSteps[k]) * sigma * sigma;
      double observed = sampleVariance(noiseAt[k]);
      double low = expected * chi2.inverseCumulativeProbability(0.5e-5) / (streams - 1);
      double high = expected * chi2.inverseSurvivalProbability(0.5e-5) / (streams - 1);
      assertTrue(observed > low && observed < high,
          "t=" + checkedSteps[k] + ": variance " + observed + " outside [" + low + ", " + high + "]");
    }
  }

  @Test
  void aFailedStepChangesNothing() {
    long[][] leaves = randomLeaves(10, 5);
    ContinualPrefixSum withFailure = ContinualPrefixSum.compact(D, 8, keyedGaussian("atomic", 5.0));
    ContinualPrefixSum clean = ContinualPrefixSum.compact(D, 8, keyedGaussian("atomic", 5.0));
    long[] release = new long[D];
    long[] huge = {Long.MAX_VALUE, 0, 0};
    for (int t = 0; t < leaves.length; t++) {
      if (t == 6) {
        assertThrows(ArithmeticException.class, () -> withFailure.addAndRelease(huge, new long[D]));
      }
      long[] expected = new long[D];
      clean.addAndRelease(leaves[t], expected);
      withFailure.addAndRelease(leaves[t], release);
      assertArrayEquals(expected, release, "t=" + (t + 1));
    }
  }

  @Test
  void wrongDimensionIsRejected() {
    ContinualPrefixSum mechanism = ContinualPrefixSum.compact(D, 8, new ConstantNodeNoise(0));
    assertThrows(IllegalArgumentException.class, () -> mechanism.addAndRelease(new long[D + 1], new long[D]));
  }

  /** At the horizon a leaf starts the next epoch: a rejected one must not have started it. */
  @Test
  void aLeafOfTheWrongDimensionAtTheHorizonLeavesTheEpochAsItWas() {
    ContinualPrefixSum mechanism = ContinualPrefixSum.compact(D, 2, new ConstantNodeNoise(0));
    releases(mechanism, randomLeaves(2, 6));
    assertThrows(IllegalArgumentException.class, () -> mechanism.addAndRelease(new long[D + 1], new long[D]));
    assertEquals(0, mechanism.epoch());
    assertEquals(2, mechanism.stepsInEpoch());
  }

  @Test
  void aStreamNeedsAPositiveDimensionAndHorizon() {
    for (int[] shape : new int[][] {{0, 8}, {D, 0}}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> ContinualPrefixSum.compact(shape[0], shape[1], new ConstantNodeNoise(0)));
      assertTrue(e.getMessage().contains("need dimension > 0 and horizon > 0"), e.getMessage());
    }
    ContinualPrefixSum smallest = ContinualPrefixSum.compact(1, 1, new ConstantNodeNoise(0));
    assertEquals(1, smallest.dimension());
    assertEquals(1, smallest.horizon());
  }

  private static double sampleVariance(double[] values) {
    double mean = 0;
    for (double v : values) {
      mean += v;
    }
    mean /= values.length;
    double squares = 0;
    for (double v : values) {
      squares += (v - mean) * (v - mean);
    }
    return squares / (values.length - 1);
  }
}
