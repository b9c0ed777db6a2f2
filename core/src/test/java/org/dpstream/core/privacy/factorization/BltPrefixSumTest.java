package org.dpstream.core.privacy.factorization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.Arrays;
import org.dpstream.core.privacy.accounting.GaussianZcdpMap;
import org.dpstream.core.privacy.accounting.SensitivityStructure;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.ZcdpBudget;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseStream;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;

class BltPrefixSumTest {

  private static final int D = 3;
  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(43));
  private static final BltStrategy STRATEGY = BltOptimizer.forHorizon(6);

  private static NoiseStream bits(String stream) {
    return SOURCE.forStream(BltPrefixSum.NOISE_PURPOSE, stream);
  }

  private static BltPrefixSum gaussian(String stream, long horizon, double sigma) {
    return BltPrefixSum.start(STRATEGY, horizon, bits(stream), IidVectorNoise.gaussian(D, sigma));
  }

  private static double[][] run(BltPrefixSum mechanism, double[][] leaves) {
    return EpochedPrefixSumContract.run(mechanism, leaves);
  }

  @Test
  void withoutNoiseReleasesAreTheExactPrefixSumsAcrossEpochs() {
    EpochedPrefixSumContract.assertNoiselessReleasesAreExactPrefixSums(
        BltPrefixSum.start(STRATEGY, 5, bits("exact"), new ZeroVectorNoise(D)));
  }

  /**
   * An independent reference: the keyed draws z_1..z_n of each epoch, the explicit matrix B = A C^{-1} (C^{-1} by
   * forward substitution on C's Toeplitz coefficients, not through the buffers), plus the exact sums and the
   * previous epoch's last release.
   */
  @Test
  void noiseIsRowTOfATimesCInverseTimesTheKeyedDraws() {
    int horizon = 6;
    double sigma = 2.5;
    IidVectorNoise noise = IidVectorNoise.gaussian(D, sigma);
    BltPrefixSum mechanism = gaussian("reference", horizon, sigma);
    double[] c = STRATEGY.coefficients(horizon);
    double[][] leaves = EpochedPrefixSumContract.randomLeaves(3 * horizon, D, 2);
    double[] release = new double[D];
    double[] base = new double[D];
    for (int epoch = 0; epoch < 3; epoch++) {
      double[][] w = new double[horizon + 1][D]; // w = C^{-1} z: w_t = z_t - sum_{s<t} c_{t-s} w_s
      double[] sum = new double[D];
      double[] noiseSum = new double[D];
      double[] last = null;
      for (int t = 1; t <= horizon; t++) {
        noise.sample(bits("reference").at(epoch, t), w[t]);
        for (int j = 0; j < D; j++) {
          for (int s = 1; s < t; s++) {
            w[t][j] -= c[t - s] * w[s][j];
          }
          noiseSum[j] += w[t][j];
        }
        double[] leaf = leaves[epoch * horizon + t - 1];
        mechanism.addAndRelease(leaf, release);
        for (int j = 0; j < D; j++) {
          sum[j] += leaf[j];
          assertEquals(base[j] + sum[j] + noiseSum[j], release[j], 1e-11, "epoch " + epoch + ", t=" + t);
        }
        last = release.clone();
      }
      base = last;
      assertEquals(epoch, mechanism.epoch());
    }
  }

  @Test
  void aReplayIsBitIdenticalAndAnotherStreamIsNot() {
    EpochedPrefixSumContract.assertAReplayIsBitIdenticalAndAnotherStreamIsNot(
        stream -> gaussian(stream, 7, 4), EpochedPrefixSumContract.randomLeaves(23, D, 3));
  }

  @Test
  void aFailedStepChangesNothing() {
    int horizon = 4;
    EpochedPrefixSumContract.assertAFailedStepChangesNothing(() -> gaussian("atomic", horizon, 5), horizon,
        EpochedPrefixSumContract.randomLeaves(11, D, 5));
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

  private static byte[] snapshot(BltPrefixSum mechanism) throws IOException {
    return EpochedPrefixSumContract.snapshot(mechanism);
  }

  private static BltPrefixSum restore(byte[] snapshot, double sigma) throws IOException {
    return BltPrefixSum.readFrom(new DataInputStream(new ByteArrayInputStream(snapshot)), STRATEGY, bits("snapshot"),
        IidVectorNoise.gaussian(D, sigma));
  }

  /** Every cut point of three and a bit epochs: the regenerated buffers continue bit for bit. */
  @Test
  void restoringAtAnyStepContinuesBitIdentically() throws IOException {
    int horizon = 5;
    EpochedPrefixSumContract.assertRestoringAtAnyStepContinuesBitIdentically(() -> gaussian("snapshot", horizon, 3),
        in -> BltPrefixSum.readFrom(in, STRATEGY, bits("snapshot"), IidVectorNoise.gaussian(D, 3)),
        EpochedPrefixSumContract.randomLeaves(3 * horizon + 2, D, 7));
  }

  @Test
  void corruptSnapshotsAreRefused() throws IOException {
    BltPrefixSum mechanism = gaussian("snapshot", 5, 3);
    mechanism.addAndRelease(new double[] {1, 2, 3}, new double[D]);
    byte[] good = snapshot(mechanism);
    // Layout: version (1), d (4), n (8), epoch (8), base (8 d), steps (8), exact sum (8 d).
    byte[] version = good.clone();
    version[0] = (byte) (BltPrefixSum.SNAPSHOT_VERSION + 1);
    byte[] tooManySteps = good.clone();
    writeLong(tooManySteps, 1 + 4 + 8 + 8 + 8 * D, 6);
    byte[] nanInTheSum = good.clone();
    writeLong(nanInTheSum, 1 + 4 + 8 + 8 + 8 * D + 8, Double.doubleToRawLongBits(Double.NaN));
    byte[] truncated = Arrays.copyOf(good, good.length - 1);
    for (byte[] corrupt : new byte[][] {version, tooManySteps, nanInTheSum, truncated}) {
      assertThrows(IOException.class, () -> restore(corrupt, 3));
    }
    assertThrows(IOException.class, () -> BltPrefixSum.readFrom(new DataInputStream(new ByteArrayInputStream(good)),
        STRATEGY, bits("snapshot"), IidVectorNoise.gaussian(D + 1, 3)));
    GaussianZcdpMap otherHorizon = GaussianZcdpMap.calibrate("test", ZcdpBudget.of(new PrivacyBudget(1, 1e-5)), 2,
        SensitivityStructure.toeplitz(6, STRATEGY::squaredColumnNormUpperBounds));
    assertThrows(IOException.class, () -> BltPrefixSum.readFrom(new DataInputStream(new ByteArrayInputStream(good)),
        STRATEGY, otherHorizon, bits("snapshot"), D));
  }

  @Test
  void theCalibratedMechanismUsesTheCalibrationsSigmaAndHorizon() {
    GaussianZcdpMap calibration = GaussianZcdpMap.calibrate("test", ZcdpBudget.of(new PrivacyBudget(1, 1e-5)), 2,
        SensitivityStructure.toeplitz(9, STRATEGY::squaredColumnNormUpperBounds));
    BltPrefixSum calibrated = BltPrefixSum.start(D, STRATEGY, calibration, bits("calibrated"));
    BltPrefixSum byHand = BltPrefixSum.start(STRATEGY, 9, bits("calibrated"),
        IidVectorNoise.gaussian(D, calibration.sigma()));
    assertEquals(9, calibrated.horizon());
    double[][] leaves = EpochedPrefixSumContract.randomLeaves(12, D, 6);
    assertTrue(Arrays.deepEquals(run(calibrated, leaves), run(byHand, leaves)));
  }

  /** Restored as the calibration's mechanism, a snapshot of it continues bit for bit. */
  @Test
  void theCalibratedRestoreContinuesTheCalibratedMechanism() throws IOException {
    GaussianZcdpMap calibration = GaussianZcdpMap.calibrate("test", ZcdpBudget.of(new PrivacyBudget(1, 1e-5)), 2,
        SensitivityStructure.toeplitz(6, STRATEGY::squaredColumnNormUpperBounds));
    double[][] leaves = EpochedPrefixSumContract.randomLeaves(9, D, 8);
    double[][] straight = run(BltPrefixSum.start(D, STRATEGY, calibration, bits("calibrated")), leaves);
    BltPrefixSum first = BltPrefixSum.start(D, STRATEGY, calibration, bits("calibrated"));
    run(first, Arrays.copyOf(leaves, 4));
    BltPrefixSum restored = BltPrefixSum.readFrom(new DataInputStream(new ByteArrayInputStream(snapshot(first))),
        STRATEGY, calibration, bits("calibrated"), D);
    double[][] continued = run(restored, Arrays.copyOfRange(leaves, 4, leaves.length));
    assertTrue(Arrays.deepEquals(Arrays.copyOfRange(straight, 4, leaves.length), continued));
  }

  @Test
  void anEmptyHorizonOrDimensionIsRefused() {
    assertThrows(IllegalArgumentException.class,
        () -> BltPrefixSum.start(STRATEGY, 0, bits("empty"), IidVectorNoise.gaussian(D, 1)));
    assertThrows(IllegalArgumentException.class,
        () -> BltPrefixSum.start(STRATEGY, 6, bits("empty"), new ZeroVectorNoise(0)));
  }

  private static void writeLong(byte[] bytes, int offset, long value) {
    for (int i = 0; i < Long.BYTES; i++) {
      bytes[offset + i] = (byte) (value >>> (8 * (Long.BYTES - 1 - i)));
    }
  }
}
