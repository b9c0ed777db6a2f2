package org.dpstream.core.privacy.factorization;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseStream;
import org.dpstream.core.privacy.testing.ConstantNodeNoise;
import org.dpstream.core.privacy.testing.TestKeys;
import org.dpstream.core.privacy.tree.DiscreteGaussianNodeNoise;
import org.dpstream.core.privacy.tree.Lattice;
import org.junit.jupiter.api.Test;

class ExactBltPrefixSumTest {

  private static final int D = 3;
  private static final long HORIZON = 64;
  private static final Lattice LATTICE = Lattice.ofPowerOfTwo(-20);
  private static final FixedPointBlt ENCODER = FixedPointBlt.of(BltOptimizer.forHorizon(HORIZON), (1L << 21) + 2);
  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(41));

  private static NoiseStream bits() {
    return SOURCE.forStream(ExactBltPrefixSum.NOISE_PURPOSE, "exact-blt-test");
  }

  /** N_Z(0, 1000^2) units per coordinate, keyed at (epoch, step). */
  private static DiscreteGaussianNodeNoise noise() {
    return DiscreteGaussianNodeNoise.onLattice(bits(), D, 1000 * LATTICE.granularity(), LATTICE);
  }

  private static double[][] leaves(int steps) {
    return EpochedPrefixSumContract.randomLeaves(steps, D, 3);
  }

  /**
   * Without noise the release is B R(x) = A x up to B applied to the rounding errors of R: within a few hundred
   * units of gamma (2^-20) of the exact prefix sum at every step, over two epochs.
   */
  @Test
  void withoutNoiseTheReleasesAreThePrefixSumsUpToRounding() {
    ExactBltPrefixSum mechanism = ExactBltPrefixSum.start(ENCODER, LATTICE, new ConstantNodeNoise(0), HORIZON, D);
    double[][] leaves = leaves(2 * (int) HORIZON);
    double[] exact = new double[D];
    double[] release = new double[D];
    for (int t = 0; t < leaves.length; t++) {
      mechanism.addAndRelease(leaves[t], release);
      for (int j = 0; j < D; j++) {
        exact[j] += leaves[t][j];
        assertEquals(exact[j], release[j], 500 * LATTICE.granularity(), "t=" + (t + 1) + ", j=" + j);
      }
    }
    assertEquals(1, mechanism.epoch());
    assertEquals(HORIZON, mechanism.stepsInEpoch());
    assertEquals(HORIZON, mechanism.horizon());
    assertEquals(2 * HORIZON, mechanism.totalSteps());
  }

  /**
   * The noise of the releases is gamma B z with z the keyed discrete Gaussian draws: the release minus the noise-free
   * release equals gamma A C'^(-1) z, C'^(-1) applied by the inverse BLT recursion to the draws read back from the
   * same keyed coordinates (epoch, step).
   */
  @Test
  void theNoiseIsTheKeyedDiscreteGaussianThroughB() {
    ExactBltPrefixSum noisy = ExactBltPrefixSum.start(ENCODER, LATTICE, noise(), HORIZON, D);
    ExactBltPrefixSum quiet = ExactBltPrefixSum.start(ENCODER, LATTICE, new ConstantNodeNoise(0), HORIZON, D);
    DiscreteGaussianNodeNoise draws = noise();
    double[] decays = ENCODER.strategy().decays();
    double[] scales = ENCODER.strategy().scales();
    double[][] buffers = new double[D][decays.length];
    double[] noiseSum = new double[D];
    double[][] leaves = leaves((int) HORIZON);
    double[] a = new double[D];
    double[] b = new double[D];
    double largestNoise = 0;
    for (int t = 1; t <= HORIZON; t++) {
      noisy.addAndRelease(leaves[t - 1], a);
      quiet.addAndRelease(leaves[t - 1], b);
      long[] z = new long[D];
      draws.add(0, t, z);
      for (int j = 0; j < D; j++) {
        double w = z[j];
        for (int i = 0; i < decays.length; i++) {
          w -= scales[i] * buffers[j][i];
        }
        for (int i = 0; i < decays.length; i++) {
          buffers[j][i] = decays[i] * buffers[j][i] + w;
        }
        noiseSum[j] += w;
        double expected = noiseSum[j] * LATTICE.granularity();
        // The two runs round the same rows, so their difference is B z up to floating-point error.
        assertEquals(expected, a[j] - b[j], 1e-9 * (1 + Math.abs(expected)), "t=" + t + ", j=" + j);
        largestNoise = Math.max(largestNoise, Math.abs(expected));
      }
    }
    assertTrue(largestNoise > 100 * LATTICE.granularity(), "noise was added: " + largestNoise);
  }

  /** A mechanism restored from its snapshot at any step, across epochs, continues bit for bit. */
  @Test
  void restoredFromASnapshotAnywhereItContinuesBitForBit() throws IOException {
    double[][] leaves = leaves(3 * (int) HORIZON + 5);
    ExactBltPrefixSum straight = ExactBltPrefixSum.start(ENCODER, LATTICE, noise(), HORIZON, D);
    double[][] expected = new double[leaves.length][D];
    for (int t = 0; t < leaves.length; t++) {
      straight.addAndRelease(leaves[t], expected[t]);
    }
    for (int cut : new int[] {0, 1, 17, 63, 64, 65, 130, 192}) {
      ExactBltPrefixSum first = ExactBltPrefixSum.start(ENCODER, LATTICE, noise(), HORIZON, D);
      double[] release = new double[D];
      for (int t = 0; t < cut; t++) {
        first.addAndRelease(leaves[t], release);
      }
      ExactBltPrefixSum resumed = ExactBltPrefixSum.readFrom(in(snapshot(first)), ENCODER, LATTICE, noise(), HORIZON, D);
      assertEquals(first.totalSteps(), resumed.totalSteps());
      for (int t = cut; t < leaves.length; t++) {
        resumed.addAndRelease(leaves[t], release);
        assertArrayEquals(expected[t], release, "cut " + cut + ", t=" + (t + 1));
      }
    }
  }

  @Test
  void snapshotsOfOtherMechanismsOrConfigurationsAndCorruptOnesAreRefused() throws IOException {
    ExactBltPrefixSum mechanism = ExactBltPrefixSum.start(ENCODER, LATTICE, noise(), HORIZON, D);
    double[] release = new double[D];
    for (double[] leaf : leaves(5)) {
      mechanism.addAndRelease(leaf, release);
    }
    byte[] snapshot = snapshot(mechanism);
    assertThrows(IOException.class,
        () -> ExactBltPrefixSum.readFrom(in(snapshot), ENCODER, Lattice.ofPowerOfTwo(-21), noise(), HORIZON, D));
    assertThrows(IOException.class,
        () -> ExactBltPrefixSum.readFrom(in(snapshot), ENCODER, LATTICE, noise(), HORIZON + 1, D));
    BltPrefixSum continuous = BltPrefixSum.start(BltOptimizer.forHorizon(HORIZON), HORIZON, bits(),
        new ZeroVectorNoise(D));
    continuous.addAndRelease(new double[D], release);
    IOException other = assertThrows(IOException.class,
        () -> ExactBltPrefixSum.readFrom(in(snapshot(continuous)), ENCODER, LATTICE, noise(), HORIZON, D));
    assertTrue(other.getMessage().contains("not an exact BLT snapshot"), other.getMessage());
    byte[] corrupt = snapshot.clone();
    // the last long is a C-side buffer: far beyond its bound S_i
    corrupt[corrupt.length - 8] = 0x3f;
    IOException buffer = assertThrows(IOException.class,
        () -> ExactBltPrefixSum.readFrom(in(corrupt), ENCODER, LATTICE, noise(), HORIZON, D));
    assertTrue(buffer.getMessage().contains("out of range"), buffer.getMessage());
  }

  /** A leaf that cannot be put on the lattice, or a leaf or release of the wrong length, changes nothing. */
  @Test
  void aFailedStepChangesNothing() {
    double[][] leaves = leaves(10);
    ExactBltPrefixSum straight = ExactBltPrefixSum.start(ENCODER, LATTICE, noise(), HORIZON, D);
    ExactBltPrefixSum failing = ExactBltPrefixSum.start(ENCODER, LATTICE, noise(), HORIZON, D);
    double[] expected = new double[D];
    double[] release = new double[D];
    for (int t = 0; t < leaves.length; t++) {
      straight.addAndRelease(leaves[t], expected);
      if (t == 4) {
        assertThrows(ArithmeticException.class, () -> failing.addAndRelease(new double[] {0, Double.NaN, 0}, release));
        IllegalArgumentException shortLeaf =
            assertThrows(IllegalArgumentException.class, () -> failing.addAndRelease(new double[2], release));
        assertEquals("leaf has length 2, expected 3", shortLeaf.getMessage());
        assertThrows(IllegalArgumentException.class, () -> failing.addAndRelease(leaves[4], new double[D - 1]));
      }
      failing.addAndRelease(leaves[t], release);
      assertArrayEquals(expected, release, "t=" + (t + 1));
    }
  }

  /**
   * Leaves beyond the encoder's bound X are clamped to it, whatever the caller clipped: the bound that keeps the
   * integer arithmetic from overflowing, and the neighbour distance the calibration prices, hold for any input.
   */
  @Test
  void leavesBeyondTheEncodersBoundAreClampedToIt() {
    double bound = ENCODER.leafBound() * LATTICE.granularity();
    ExactBltPrefixSum beyond = ExactBltPrefixSum.start(ENCODER, LATTICE, new ConstantNodeNoise(0), HORIZON, D);
    ExactBltPrefixSum atTheBound = ExactBltPrefixSum.start(ENCODER, LATTICE, new ConstantNodeNoise(0), HORIZON, D);
    double[] release = new double[D];
    double[] expected = new double[D];
    for (int t = 0; t < 3; t++) {
      beyond.addAndRelease(new double[] {100, -100, 0.5}, release);
      atTheBound.addAndRelease(new double[] {bound, -bound, 0.5}, expected);
      assertArrayEquals(expected, release, "t=" + (t + 1));
    }
  }

  /** A release beyond the largest double is refused, and the step is not taken: the next leaf goes on from before. */
  @Test
  void anOverflowingReleaseIsRefusedAndChangesNothing() {
    Lattice coarse = Lattice.ofPowerOfTwo(1000);
    double leafAtTheBound = ENCODER.leafBound() * coarse.granularity(); // 2^1021 and a bit: 2^24 units overflow
    ExactBltPrefixSum mechanism = ExactBltPrefixSum.start(ENCODER, coarse, new ConstantNodeNoise(0), HORIZON, D);
    double[] release = new double[D];
    int taken = 0;
    IllegalArgumentException overflow = null;
    while (overflow == null && taken < 10) {
      double[] target = {7, 8, 9};
      try {
        mechanism.addAndRelease(new double[] {leafAtTheBound, 0, 0}, target);
        System.arraycopy(target, 0, release, 0, D);
        taken++;
      } catch (IllegalArgumentException e) {
        overflow = e;
        assertArrayEquals(new double[] {7, 8, 9}, target, "the release is untouched");
      }
    }
    assertTrue(overflow != null && overflow.getMessage().contains("overflows"), "refused after " + taken + " steps");
    assertTrue(taken >= 7, "7 leaves of 2^21 units stay below 2^24: " + taken);
    assertEquals(taken, mechanism.totalSteps());
    double before = release[0];
    mechanism.addAndRelease(new double[] {-leafAtTheBound, 0, 0}, release);
    assertEquals(before - leafAtTheBound, release[0], 1e-6 * leafAtTheBound, "it goes on from the last release");
  }

  /** Snapshots with a negative epoch or step count, a step count beyond the horizon, or a NaN are refused. */
  @Test
  void corruptCountersAndValuesAreRefused() throws IOException {
    ExactBltPrefixSum mechanism = ExactBltPrefixSum.start(ENCODER, LATTICE, noise(), HORIZON, D);
    mechanism.addAndRelease(new double[D], new double[D]);
    byte[] good = snapshot(mechanism);
    // Layout: version (1), d (4), n (8), buffers (4), exponent (4), X (8), epoch (8), steps (8), base (8 d), ...
    int epochAt = 1 + 4 + 8 + 4 + 4 + 8;
    int stepsAt = epochAt + 8;
    int baseAt = stepsAt + 8;
    for (long[] offsetAndValue : new long[][] {{epochAt, -1}, {stepsAt, -1}, {stepsAt, HORIZON + 1},
        {baseAt, Double.doubleToRawLongBits(Double.NaN)}}) {
      byte[] corrupt = good.clone();
      writeLong(corrupt, (int) offsetAndValue[0], offsetAndValue[1]);
      IOException refused = assertThrows(IOException.class,
          () -> ExactBltPrefixSum.readFrom(in(corrupt), ENCODER, LATTICE, noise(), HORIZON, D));
      assertTrue(refused.getMessage().startsWith("corrupt exact BLT snapshot"), refused.getMessage());
    }
    assertEquals(1, ExactBltPrefixSum.readFrom(in(good), ENCODER, LATTICE, noise(), HORIZON, D).totalSteps());
  }

  /** A snapshot of another encoder (leaf bound or buffer count) or dimension does not match this mechanism. */
  @Test
  void snapshotsOfAnotherEncoderOrDimensionAreRefused() throws IOException {
    ExactBltPrefixSum mechanism = ExactBltPrefixSum.start(ENCODER, LATTICE, noise(), HORIZON, D);
    mechanism.addAndRelease(new double[D], new double[D]);
    byte[] snapshot = snapshot(mechanism);
    FixedPointBlt otherBound = FixedPointBlt.of(BltOptimizer.forHorizon(HORIZON), 1L << 21);
    FixedPointBlt otherBuffers = FixedPointBlt.of(BltOptimizer.forHorizon(HORIZON, 3), (1L << 21) + 2);
    for (FixedPointBlt other : new FixedPointBlt[] {otherBound, otherBuffers}) {
      IOException refused = assertThrows(IOException.class,
          () -> ExactBltPrefixSum.readFrom(in(snapshot), other, LATTICE, noise(), HORIZON, D));
      assertTrue(refused.getMessage().contains("does not match"), refused.getMessage());
    }
    assertThrows(IOException.class,
        () -> ExactBltPrefixSum.readFrom(in(snapshot), ENCODER, LATTICE, noise(), HORIZON, D + 1));
  }

  @Test
  void anEmptyHorizonOrDimensionIsRefused() {
    assertThrows(IllegalArgumentException.class,
        () -> ExactBltPrefixSum.start(ENCODER, LATTICE, new ConstantNodeNoise(0), 0, D));
    assertThrows(IllegalArgumentException.class,
        () -> ExactBltPrefixSum.start(ENCODER, LATTICE, new ConstantNodeNoise(0), HORIZON, 0));
    assertEquals(1, ExactBltPrefixSum.start(ENCODER, LATTICE, new ConstantNodeNoise(0), 1, 1).horizon());
  }

  private static void writeLong(byte[] bytes, int offset, long value) {
    for (int i = 0; i < Long.BYTES; i++) {
      bytes[offset + i] = (byte) (value >>> (8 * (Long.BYTES - 1 - i)));
    }
  }

  private static byte[] snapshot(org.dpstream.core.privacy.PrivatePrefixSums mechanism) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    mechanism.writeTo(new DataOutputStream(bytes));
    return bytes.toByteArray();
  }

  private static DataInputStream in(byte[] bytes) {
    return new DataInputStream(new ByteArrayInputStream(bytes));
  }
}
