package org.dpstream.core.privacy.factorization;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * The snapshot layout shared by the factorization mechanisms, whose noise is regenerated from the key:
 * version, dimension, horizon, epoch, base, steps in epoch, exact sum (big-endian, as {@link DataOutput}). It
 * holds the raw exact sum and so needs the access control of the input; never noise.
 *
 * @param base the last release of the previous epochs
 * @param exactSum the exact sum of the current epoch's leaves
 */
record EpochSnapshot(int dimension, long horizon, long epoch, double[] base, long steps, double[] exactSum) {

  /** Bounds what a corrupt snapshot can make us allocate. */
  private static final int MAX_DIMENSION = 1 << 24;

  void writeTo(DataOutput out, byte version) throws IOException {
    out.writeByte(version);
    out.writeInt(dimension);
    out.writeLong(horizon);
    out.writeLong(epoch);
    writeVector(out, base);
    out.writeLong(steps);
    writeVector(out, exactSum);
  }

  /**
   * Reads and checks a snapshot of {@link #writeTo}.
   *
   * @param mechanism names the mechanism in error messages, e.g. {@code blt}
   * @throws IOException if the version is not {@code version} or the snapshot is corrupt
   */
  static EpochSnapshot readFrom(DataInput in, byte version, String mechanism) throws IOException {
    byte found = in.readByte();
    if (found != version) {
      throw new IOException("unknown " + mechanism + " snapshot version " + found + " (this build reads " + version + ")");
    }
    int dimension = in.readInt();
    long horizon = in.readLong();
    long epoch = in.readLong();
    if (dimension <= 0 || dimension > MAX_DIMENSION || horizon <= 0 || epoch < 0) {
      throw new IOException("corrupt " + mechanism + " snapshot: d=" + dimension + ", n=" + horizon + ", epoch=" + epoch);
    }
    double[] base = readFiniteVector(in, dimension, mechanism, "base");
    long steps = in.readLong();
    if (steps < 0 || steps > horizon) {
      throw new IOException("corrupt " + mechanism + " snapshot: " + steps + " steps in an epoch of " + horizon);
    }
    double[] exactSum = readFiniteVector(in, dimension, mechanism, "exact sum");
    return new EpochSnapshot(dimension, horizon, epoch, base, steps, exactSum);
  }

  private static void writeVector(DataOutput out, double[] vector) throws IOException {
    for (double v : vector) {
      out.writeDouble(v);
    }
  }

  private static double[] readFiniteVector(DataInput in, int dimension, String mechanism, String name)
      throws IOException {
    double[] vector = new double[dimension];
    for (int j = 0; j < dimension; j++) {
      vector[j] = in.readDouble();
      if (!Double.isFinite(vector[j])) {
        throw new IOException("corrupt " + mechanism + " snapshot: " + name + " coordinate " + j + " is not finite");
      }
    }
    return vector;
  }
}
