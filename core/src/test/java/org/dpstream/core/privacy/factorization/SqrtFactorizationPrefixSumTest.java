package org.dpstream.core.privacy.factorization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.ZcdpBudget;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseStream;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;

class SqrtFactorizationPrefixSumTest {

  private static final int D = 3;
  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(41));

  private static NoiseStream bits(String stream) {
    return SOURCE.forStream(SqrtFactorizationPrefixSum.NOISE_PURPOSE, stream);
  }

  private static SqrtFactorizationPrefixSum gaussian(String stream, long horizon, double sigma) {
    return SqrtFactorizationPrefixSum.start(D, horizon, bits(stream), IidVectorNoise.gaussian(D, sigma));
  }

  private static double[][] randomLeaves(int steps, int dimension, long seed) {
    return EpochedPrefixSumContract.randomLeaves(steps, dimension, seed);
  }

  @Test
  void withoutNoiseReleasesAreTheExactPrefixSumsAcrossEpochs() {
    EpochedPrefixSumContract.assertNoiselessReleasesAreExactPrefixSums(
        SqrtFactorizationPrefixSum.start(D, 5, bits("exact"), new ZeroVectorNoise(D)));
  }

  /**
   * An independent reference: draw z_1..z_n of each epoch from the same coordinates, form C z with the
   * explicit matrix, and add the exact sum and the previous epoch's last release.
   */
  @Test
  void noiseIsRowTOfCTimesTheKeyedDrawsAndEpochsContinueFromTheLastRelease() {
    int horizon = 6;
    double sigma = 2.5;
    NoiseStream referenceBits = bits("reference");
    IidVectorNoise noise = IidVectorNoise.gaussian(D, sigma);
    SqrtFactorizationPrefixSum mechanism = gaussian("reference", horizon, sigma);
    double[] r = PrefixSumSquareRoot.coefficients(horizon);
    double[][] leaves = randomLeaves(3 * horizon, D, 2);
    double[] release = new double[D];
    double[] base = new double[D];
    double[] previousRelease = new double[D];
    for (int epoch = 0; epoch < 3; epoch++) {
      double[][] z = new double[horizon + 1][D];
      for (int i = 1; i <= horizon; i++) {
        noise.sample(referenceBits.at(epoch, i), z[i]);
      }
      double[] sum = new double[D];
      for (int t = 1; t <= horizon; t++) {
        double[] leaf = leaves[epoch * horizon + t - 1];
        mechanism.addAndRelease(leaf, release);
        for (int j = 0; j < D; j++) {
          sum[j] += leaf[j];
          double correlated = 0;
          for (int i = 1; i <= t; i++) {
            correlated += r[t - i] * z[i][j];
          }
          assertEquals(base[j] + sum[j] + correlated, release[j], 1e-12, "epoch " + epoch + ", t=" + t);
        }
        previousRelease = release.clone();
      }
      base = previousRelease; // the next epoch starts from this epoch's last release, exactly
      assertEquals(epoch, mechanism.epoch());
    }
  }

  @Test
  void theFirstReleaseOfAnEpochIsTheLastReleasePlusTheLeafAndOneDraw() {
    int horizon = 4;
    double sigma = 3;
    SqrtFactorizationPrefixSum mechanism = gaussian("continuation", horizon, sigma);
    double[] leaf = {1, -2, 0.5};
    double[] lastOfEpochZero = new double[D];
    for (int t = 0; t < horizon; t++) {
      mechanism.addAndRelease(leaf, lastOfEpochZero);
    }
    double[] firstOfEpochOne = new double[D];
    mechanism.addAndRelease(leaf, firstOfEpochOne);
    double[] z = new double[D];
    IidVectorNoise.gaussian(D, sigma).sample(bits("continuation").at(1, 1), z);
    for (int j = 0; j < D; j++) {
      assertEquals(lastOfEpochZero[j] + (leaf[j] + z[j]), firstOfEpochOne[j], 0.0, "j=" + j);
    }
  }

  @Test
  void aReplayIsBitIdenticalAndAnotherStreamIsNot() {
    EpochedPrefixSumContract.assertAReplayIsBitIdenticalAndAnotherStreamIsNot(
        stream -> gaussian(stream, 7, 4), randomLeaves(23, D, 3));
  }

  private static double[][] run(SqrtFactorizationPrefixSum mechanism, double[][] leaves) {
    return EpochedPrefixSumContract.run(mechanism, leaves);
  }

  /**
   * The noise in the release at t has per-coordinate variance sigma^2 sum_{k&lt;t} r_k^2. 3000 independent
   * streams (distinct stream ids) times D = 4 independent coordinates; the mean is known (0), so the sum of
   * squares over the variance is chi-square with 12000 degrees of freedom. Each of the 5 checks uses a
   * two-sided interval at 1e-5, so a fresh key would fail the test with probability at most 5e-5; the key is
   * fixed, so the test is deterministic.
   */
  @Test
  void releaseNoiseVarianceIsSigmaSquaredTimesTheTruncatedColumnNorm() {
    int dimension = 4;
    double sigma = 2.0;
    int streams = 3000;
    int[] checkedSteps = {1, 2, 5, 16, 40};
    double[] meanSquares = EpochedPrefixSumContract.meanSquaredReleases(s -> SqrtFactorizationPrefixSum.start(
        dimension, 1000, bits("variance-" + s), IidVectorNoise.gaussian(dimension, sigma)), streams, checkedSteps);
    int samples = streams * dimension;
    ChiSquaredDistribution chi2 = ChiSquaredDistribution.of(samples);
    for (int c = 0; c < checkedSteps.length; c++) {
      double expected = sigma * sigma * PrefixSumSquareRoot.squaredColumnNorm(checkedSteps[c]);
      double observed = meanSquares[c];
      double low = expected * chi2.inverseCumulativeProbability(0.5e-5) / samples;
      double high = expected * chi2.inverseSurvivalProbability(0.5e-5) / samples;
      assertTrue(observed > low && observed < high,
          "t=" + checkedSteps[c] + ": variance " + observed + " outside [" + low + ", " + high + "]");
    }
  }

  @Test
  void aFailedStepChangesNothing() {
    int horizon = 4;
    EpochedPrefixSumContract.assertAFailedStepChangesNothing(() -> gaussian("atomic", horizon, 5), horizon,
        randomLeaves(11, D, 5));
  }

  @Test
  void anOverflowingSumIsRejectedAndChangesNothing() {
    EpochedPrefixSumContract.assertAnOverflowingSumIsRejectedAndChangesNothing(() -> gaussian("overflow", 10, 1));
  }

  @Test
  void anOverflowingReleaseIsRejectedAndChangesNothing() {
    EpochedPrefixSumContract.assertAnOverflowingReleaseIsRejectedAndChangesNothing(
        () -> gaussian("overflow", 4, 1), 4);
  }

  @Test
  void argumentsAreChecked() {
    NoiseStream bits = bits("arguments");
    IidVectorNoise noise = IidVectorNoise.gaussian(D, 1);
    // Refused by the mechanism's own check, which names both, before the noise's dimension check could answer.
    assertEquals("need dimension > 0 and horizon > 0: d=0, n=5",
        assertThrows(IllegalArgumentException.class, () -> SqrtFactorizationPrefixSum.start(0, 5, bits, noise))
            .getMessage());
    assertEquals("need dimension > 0 and horizon > 0: d=" + D + ", n=0",
        assertThrows(IllegalArgumentException.class, () -> SqrtFactorizationPrefixSum.start(D, 0, bits, noise))
            .getMessage());
    assertThrows(IllegalArgumentException.class, () -> SqrtFactorizationPrefixSum.start(D + 1, 5, bits, noise));
    SqrtFactorizationPrefixSum mechanism = SqrtFactorizationPrefixSum.start(D, 5, bits, noise);
    assertThrows(IllegalArgumentException.class, () -> mechanism.addAndRelease(new double[D], new double[D + 1]));
    assertEquals(0, mechanism.totalSteps());
  }

  @Test
  void theCalibratedMechanismUsesTheCalibrationsSigmaAndHorizon() {
    SqrtFactorizationCalibration calibration =
        SqrtFactorizationCalibration.of(ZcdpBudget.of(new PrivacyBudget(1, 1e-5)), 9, 2);
    SqrtFactorizationPrefixSum calibrated = SqrtFactorizationPrefixSum.start(D, calibration, bits("calibrated"));
    SqrtFactorizationPrefixSum byHand = SqrtFactorizationPrefixSum.start(
        D, 9, bits("calibrated"), IidVectorNoise.gaussian(D, calibration.noiseSigma()));
    assertEquals(9, calibrated.horizon());
    double[][] leaves = randomLeaves(12, D, 6);
    assertTrue(Arrays.deepEquals(run(calibrated, leaves), run(byHand, leaves)));
    assertTrue(calibrated.toString().contains("sigma=" + calibration.noiseSigma()), calibrated::toString);
  }
}
