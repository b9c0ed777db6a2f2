package org.dpstream.bandit.hdb;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * Field encodings of DP-HDB's state: a version byte and the spec fingerprint first (as the core
 * estimators' state does), then raw doubles. Kept apart from the policy so the policy reads as the
 * algorithm.
 */
final class HdbStateFormat {

  private HdbStateFormat() {}

  static void writeHeader(DataOutput out, byte version, DpHdbSpec spec) throws IOException {
    out.writeByte(version);
    byte[] fingerprint = spec.fingerprint();
    out.writeByte(fingerprint.length);
    out.write(fingerprint);
  }

  /** Checks the version this build writes and that the state was written under {@code spec}. */
  static void readHeader(DataInput in, byte expectedVersion, DpHdbSpec spec) throws IOException {
    byte version = in.readByte();
    if (version != expectedVersion) {
      throw new IOException("DP-HDB state version " + version + " is unknown (this build reads " + expectedVersion + ")");
    }
    byte[] fingerprint = new byte[in.readUnsignedByte()];
    in.readFully(fingerprint);
    if (!Arrays.equals(fingerprint, spec.fingerprint())) {
      throw new IOException("DP-HDB state of bandit " + spec.banditId()
          + " was written under a different spec; resuming it under this one would mix two calibrations");
    }
  }

  static void writeVector(DataOutput out, double[] vector) throws IOException {
    for (double v : vector) {
      out.writeDouble(v);
    }
  }

  static double[] readVector(DataInput in, int dimension) throws IOException {
    double[] vector = new double[dimension];
    for (int i = 0; i < dimension; i++) {
      vector[i] = in.readDouble();
    }
    return vector;
  }
}
