package org.dpstream.core.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** Vectors in a state are the bytes DataOutput.writeDouble writes, whatever the doubles. */
class VersionedStateTest {

  private static final double[] ODD_DOUBLES = {0.0, -0.0, 1.5, -Math.PI, Double.MIN_VALUE, Double.MAX_VALUE,
      Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, Double.longBitsToDouble(0x7ff8dead_beef0001L)};

  @Test
  void aVectorIsWrittenAsOneWriteDoubleEachWouldWriteIt() throws IOException {
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    DataOutputStream reference = new DataOutputStream(expected);
    for (double v : ODD_DOUBLES) {
      reference.writeDouble(v);
    }
    ByteArrayOutputStream written = new ByteArrayOutputStream();
    VersionedState.writeVector(new DataOutputStream(written), ODD_DOUBLES);
    assertArrayEquals(expected.toByteArray(), written.toByteArray(), "big-endian, NaN payloads canonical");
  }

  @Test
  void aWrittenVectorReadsBack() throws IOException {
    ByteArrayOutputStream written = new ByteArrayOutputStream();
    VersionedState.writeVector(new DataOutputStream(written), ODD_DOUBLES);
    double[] read = VersionedState.readVector(
        new DataInputStream(new ByteArrayInputStream(written.toByteArray())), ODD_DOUBLES.length);
    assertArrayEquals(ODD_DOUBLES, read);
  }
}
