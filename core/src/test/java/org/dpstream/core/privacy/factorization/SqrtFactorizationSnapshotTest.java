package org.dpstream.core.privacy.factorization;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.ZcdpBudget;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseStream;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;

class SqrtFactorizationSnapshotTest {

  private static final int D = 3;
  private static final int HORIZON = 5;
  private static final double SIGMA = 3;
  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(42));

  private static NoiseStream bits() {
    return SOURCE.forStream(SqrtFactorizationPrefixSum.NOISE_PURPOSE, "snapshot");
  }

  private static IidVectorNoise noise() {
    return IidVectorNoise.gaussian(D, SIGMA);
  }

  private static byte[] snapshot(SqrtFactorizationPrefixSum mechanism) throws IOException {
    return EpochedPrefixSumContract.snapshot(mechanism);
  }

  private static SqrtFactorizationPrefixSum restore(byte[] snapshot) throws IOException {
    return SqrtFactorizationPrefixSum.readFrom(new DataInputStream(new ByteArrayInputStream(snapshot)), bits(), noise());
  }

  /** Every cut point of three and a bit epochs, including the one just before an epoch change. */
  @Test
  void restoringAtAnyStepContinuesBitIdentically() throws IOException {
    EpochedPrefixSumContract.assertRestoringAtAnyStepContinuesBitIdentically(
        () -> SqrtFactorizationPrefixSum.start(D, HORIZON, bits(), noise()),
        in -> SqrtFactorizationPrefixSum.readFrom(in, bits(), noise()),
        EpochedPrefixSumContract.randomLeaves(3 * HORIZON + 2, D, 7));
  }

  @Test
  void theCalibratedRestoreChecksTheHorizon() throws IOException {
    SqrtFactorizationCalibration calibration =
        SqrtFactorizationCalibration.of(ZcdpBudget.of(new PrivacyBudget(1, 1e-5)), HORIZON, 2);
    SqrtFactorizationPrefixSum mechanism = SqrtFactorizationPrefixSum.start(D, calibration, bits());
    mechanism.addAndRelease(new double[] {1, 2, 3}, new double[D]);
    byte[] snapshot = snapshot(mechanism);
    SqrtFactorizationPrefixSum restored = SqrtFactorizationPrefixSum.readFrom(
        new DataInputStream(new ByteArrayInputStream(snapshot)), calibration, bits());
    double[] expected = new double[D];
    double[] actual = new double[D];
    mechanism.addAndRelease(new double[] {4, 5, 6}, expected);
    restored.addAndRelease(new double[] {4, 5, 6}, actual);
    assertArrayEquals(expected, actual);

    SqrtFactorizationCalibration other =
        SqrtFactorizationCalibration.of(ZcdpBudget.of(new PrivacyBudget(1, 1e-5)), HORIZON + 1, 2);
    assertThrows(IOException.class, () -> SqrtFactorizationPrefixSum.readFrom(
        new DataInputStream(new ByteArrayInputStream(snapshot)), other, bits()));
  }

  @Test
  void corruptSnapshotsAreRefused() throws IOException {
    SqrtFactorizationPrefixSum mechanism = SqrtFactorizationPrefixSum.start(D, HORIZON, bits(), noise());
    mechanism.addAndRelease(new double[] {1, 2, 3}, new double[D]);
    byte[] good = snapshot(mechanism);
    // Layout: version (1), d (4), n (8), epoch (8), base (8 d), steps (8), exact sum (8 d).
    byte[] version = good.clone();
    version[0] = (byte) (SqrtFactorizationPrefixSum.SNAPSHOT_VERSION + 1);
    byte[] tooManySteps = good.clone();
    writeLong(tooManySteps, 1 + 4 + 8 + 8 + 8 * D, HORIZON + 1);
    byte[] nanInTheSum = good.clone();
    writeLong(nanInTheSum, 1 + 4 + 8 + 8 + 8 * D + 8, Double.doubleToRawLongBits(Double.NaN));
    byte[] truncated = java.util.Arrays.copyOf(good, good.length - 1);
    for (byte[] corrupt : new byte[][] {version, tooManySteps, nanInTheSum, truncated}) {
      assertThrows(IOException.class, () -> restore(corrupt));
    }
    IidVectorNoise wrongDimension = IidVectorNoise.gaussian(D + 1, SIGMA);
    assertThrows(IOException.class, () -> SqrtFactorizationPrefixSum.readFrom(
        new DataInputStream(new ByteArrayInputStream(good)), bits(), wrongDimension));
  }

  private static void writeLong(byte[] bytes, int offset, long value) {
    for (int i = 0; i < Long.BYTES; i++) {
      bytes[offset + i] = (byte) (value >>> (8 * (Long.BYTES - 1 - i)));
    }
  }
}
