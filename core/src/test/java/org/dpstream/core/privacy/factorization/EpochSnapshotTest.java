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
import org.junit.jupiter.api.Test;

/** The shared snapshot layout: what it reads back, and the headers it refuses before trusting them. */
class EpochSnapshotTest {

  private static final byte VERSION = 7;

  private static byte[] bytes(EpochSnapshot snapshot) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    snapshot.writeTo(new DataOutputStream(bytes), VERSION);
    return bytes.toByteArray();
  }

  private static EpochSnapshot read(byte[] bytes) throws IOException {
    return EpochSnapshot.readFrom(new DataInputStream(new ByteArrayInputStream(bytes)), VERSION, "test");
  }

  /** The smallest admissible header (epoch 0, no steps yet) round-trips field by field. */
  @Test
  void aFreshSnapshotRoundTrips() throws IOException {
    EpochSnapshot read = read(bytes(new EpochSnapshot(2, 1, 0, new double[] {1.5, -2}, 0, new double[] {0, 3})));
    assertEquals(2, read.dimension());
    assertEquals(1, read.horizon());
    assertEquals(0, read.epoch());
    assertArrayEquals(new double[] {1.5, -2}, read.base());
    assertEquals(0, read.steps());
    assertArrayEquals(new double[] {0, 3}, read.exactSum());
  }

  /**
   * A header of dimension 0 or horizon 0 describes no mechanism: refused as corrupt, even when the (empty) vectors
   * and the step count that follow are consistent with it.
   */
  @Test
  void anEmptyDimensionOrHorizonIsCorrupt() throws IOException {
    byte[] noDimension = bytes(new EpochSnapshot(0, 5, 0, new double[0], 0, new double[0]));
    IOException dimension = assertThrows(IOException.class, () -> read(noDimension));
    assertTrue(dimension.getMessage().contains("corrupt test snapshot: d=0"), dimension.getMessage());
    byte[] noHorizon = bytes(new EpochSnapshot(1, 0, 0, new double[1], 0, new double[1]));
    IOException horizon = assertThrows(IOException.class, () -> read(noHorizon));
    assertTrue(horizon.getMessage().contains("n=0"), horizon.getMessage());
  }

  /** A negative epoch would address noise no mechanism ever drew: refused as corrupt. */
  @Test
  void aNegativeEpochIsCorrupt() throws IOException {
    byte[] negative = bytes(new EpochSnapshot(1, 5, -1, new double[1], 0, new double[1]));
    IOException refused = assertThrows(IOException.class, () -> read(negative));
    assertTrue(refused.getMessage().contains("epoch=-1"), refused.getMessage());
  }

  /** A corrupt dimension is refused before anything of its size is allocated. */
  @Test
  void aDimensionBeyondTheLimitIsRefusedBeforeAllocating() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeByte(VERSION);
    out.writeInt(Integer.MAX_VALUE);
    out.writeLong(5);
    out.writeLong(0);
    IOException refused = assertThrows(IOException.class, () -> read(bytes.toByteArray()));
    assertTrue(refused.getMessage().contains("corrupt test snapshot: d=" + Integer.MAX_VALUE), refused.getMessage());
  }
}
