package org.dpstream.core.state;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Field encodings shared by every saved state of a private model or policy: a header of a version byte
 * and the fingerprint of the spec the state was written under, then plain fields.
 *
 * <p>The fingerprint check matters for privacy, not only for robustness: state written under one spec
 * (another epsilon, dimension or clipping) resumed under another would silently mix two accountings.
 */
public final class VersionedState {

  private VersionedState() {}

  public static void writeHeader(DataOutput out, byte version, byte[] specFingerprint) throws IOException {
    if (specFingerprint.length > 255) {
      throw new IllegalArgumentException("a spec fingerprint has at most 255 bytes, got " + specFingerprint.length);
    }
    out.writeByte(version);
    out.writeByte(specFingerprint.length);
    out.write(specFingerprint);
  }

  /**
   * Reads and checks a header.
   *
   * @param what names the state in messages, e.g. {@code "DP-TOFW state of model m"}
   * @throws IOException on an unknown version or a state written under another spec
   */
  public static void readHeader(DataInput in, byte expectedVersion, byte[] specFingerprint, String what)
      throws IOException {
    byte version = in.readByte();
    if (version != expectedVersion) {
      throw new IOException(what + ": version " + version + " is unknown (this build reads " + expectedVersion + ")");
    }
    byte[] fingerprint = new byte[in.readUnsignedByte()];
    in.readFully(fingerprint);
    if (!Arrays.equals(fingerprint, specFingerprint)) {
      throw new IOException(what + " was written under a different spec (dimension, loss, domain, budget,"
          + " horizon, clipping or accountant changed); it cannot be resumed under this one");
    }
  }

  /**
   * The vector's doubles as {@link DataOutput#writeDouble} writes them (big-endian, NaN canonical), in one write: a
   * write per double went through the stream's synchronized write each time, 8 % of the bandit's learning thread at
   * d = 50 in a JFR profile (docs/benchmarks.md, "session 8").
   */
  public static void writeVector(DataOutput out, double[] vector) throws IOException {
    ByteBuffer bytes = ByteBuffer.allocate(Double.BYTES * vector.length);
    for (double v : vector) {
      bytes.putLong(Double.doubleToLongBits(v));
    }
    out.write(bytes.array());
  }

  public static double[] readVector(DataInput in, int dimension) throws IOException {
    double[] vector = new double[dimension];
    for (int i = 0; i < dimension; i++) {
      vector[i] = in.readDouble();
    }
    return vector;
  }
}
