package org.dpstream.core.privacy.tree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;

class ContinualPrefixSumSnapshotTest {

  private static final int D = 4;

  private static NodeNoise noise() {
    // A fresh source each time: a restart rebuilds everything from the key alone.
    KeyedNoiseSource source = new KeyedNoiseSource(TestKeys.seeded(99));
    return new KeyedNodeNoise(source.forStream("tree", "snapshot"), IidVectorNoise.gaussian(D, 7.0), Lattice.ofPowerOfTwo(-16));
  }

  private static long[] leaf(int t) {
    return new long[] {t, -3L * t, t * (long) t, 17};
  }

  private static byte[] snapshot(ContinualPrefixSum mechanism) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    mechanism.writeTo(new DataOutputStream(bytes));
    return bytes.toByteArray();
  }

  private static ContinualPrefixSum restore(byte[] bytes) throws IOException {
    return ContinualPrefixSum.readCompact(new DataInputStream(new ByteArrayInputStream(bytes)), noise());
  }

  @Test
  void restoringAtAnyStepGivesTheUninterruptedReleases() throws IOException {
    int steps = 40;
    long horizon = 11;
    long[][] uninterrupted = new long[steps][D];
    ContinualPrefixSum straight = ContinualPrefixSum.compact(D, horizon, noise());
    for (int t = 0; t < steps; t++) {
      straight.addAndRelease(leaf(t), uninterrupted[t]);
    }
    for (int crashAfter = 0; crashAfter < steps; crashAfter++) {
      ContinualPrefixSum first = ContinualPrefixSum.compact(D, horizon, noise());
      long[] release = new long[D];
      for (int t = 0; t < crashAfter; t++) {
        first.addAndRelease(leaf(t), release);
      }
      ContinualPrefixSum resumed = restore(snapshot(first));
      assertEquals(first.totalSteps(), resumed.totalSteps());
      for (int t = crashAfter; t < steps; t++) {
        resumed.addAndRelease(leaf(t), release);
        assertArrayEquals(uninterrupted[t], release, "crash after " + crashAfter + ", t=" + (t + 1));
      }
    }
  }

  @Test
  void snapshotIsOfOrderDAndIndependentOfTheHorizon() throws IOException {
    ContinualPrefixSum small = ContinualPrefixSum.compact(D, 16, noise());
    ContinualPrefixSum large = ContinualPrefixSum.compact(D, 1L << 40, noise());
    long[] release = new long[D];
    for (int t = 0; t < 1000; t++) {
      small.addAndRelease(leaf(t), release);
      large.addAndRelease(leaf(t), release);
    }
    int expectedBytes = 1 + 4 + 8 + 8 + 8 * D + 8 + 8 * D;
    assertEquals(expectedBytes, snapshot(small).length);
    assertEquals(expectedBytes, snapshot(large).length);
  }

  @Test
  void unknownVersionAndCorruptSnapshotsFailLoudly() throws IOException {
    byte[] bytes = snapshot(ContinualPrefixSum.compact(D, 16, noise()));
    bytes[0] = 9;
    IOException version = assertThrows(IOException.class, () -> restore(bytes));
    assertTrue(version.getMessage().contains("version 9"), version.getMessage());

    byte[] truncated = java.util.Arrays.copyOf(snapshot(ContinualPrefixSum.compact(D, 16, noise())), 20);
    assertThrows(IOException.class, () -> restore(truncated));

    byte[] negativeDimension = snapshot(ContinualPrefixSum.compact(D, 16, noise()));
    negativeDimension[1] = (byte) 0x80;
    assertThrows(IOException.class, () -> restore(negativeDimension));
  }

  /** A snapshot of version, dimension, horizon, epoch, a zero base and exact sum, and the steps in the epoch. */
  private static byte[] header(int dimension, long horizon, long epoch, long steps) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeByte(ContinualPrefixSum.SNAPSHOT_VERSION);
    out.writeInt(dimension);
    out.writeLong(horizon);
    out.writeLong(epoch);
    for (int i = 0; i < Math.min(dimension, D); i++) {
      out.writeLong(0);
    }
    out.writeLong(steps);
    for (int i = 0; i < Math.min(dimension, D); i++) {
      out.writeLong(0);
    }
    return bytes.toByteArray();
  }

  /** Each field at the first value outside its range is refused as corrupt, before anything is allocated for it. */
  @Test
  void everyHeaderFieldOutOfRangeIsRefusedAsCorrupt() throws IOException {
    assertEquals(3, restore(header(D, 5, 3, 5)).epoch(), "a full tree of a later epoch is a valid state");
    byte[][] corrupt = {
        header(0, 5, 0, 0), header(D, 0, 0, 0), header(D, 5, -1, 0), header(D, 5, 0, -1), header(D, 5, 0, 6),
        header((1 << 24) + 1, 5, 0, 0)};
    for (byte[] bytes : corrupt) {
      IOException e = assertThrows(IOException.class, () -> restore(bytes));
      assertTrue(e.getMessage().startsWith("corrupt prefix-sum snapshot"), e.getMessage());
    }
  }

  /**
   * 2^24 coordinates is the largest dimension a snapshot may claim: it passes the header check, so this truncated
   * one fails while reading its vector (128 MiB allocated), not as a corrupt header.
   */
  @Test
  void theLargestDimensionAllowedIsTwoToTheTwentyFour() {
    IOException e = assertThrows(IOException.class, () -> restore(header(1 << 24, 5, 0, 0)));
    assertTrue(e instanceof java.io.EOFException, e.toString());
  }

  @Test
  void aRestoredStreamHasTheDimensionAndHorizonOfTheOriginal() throws IOException {
    ContinualPrefixSum original = ContinualPrefixSum.compact(D, 11, noise());
    original.addAndRelease(leaf(1), new long[D]);
    ContinualPrefixSum restored = restore(snapshot(original));
    assertEquals(D, restored.dimension());
    assertEquals(11, restored.horizon());
    assertEquals(1, restored.stepsInEpoch());
  }
}
