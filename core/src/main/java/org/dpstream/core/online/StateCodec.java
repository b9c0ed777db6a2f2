package org.dpstream.core.online;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import org.dpstream.core.privacy.accounting.PrivacyLedger;

/** Field encodings shared by the estimators' state formats. */
final class StateCodec {

  private StateCodec() {}

  static void writeHeader(DataOutput out, byte version, OnlineModelSpec spec) throws IOException {
    out.writeByte(version);
    byte[] fingerprint = spec.fingerprint();
    out.writeByte(fingerprint.length);
    out.write(fingerprint);
  }

  /** Reads and checks the header: the version this build writes and the spec the state was made under. */
  static void readHeader(DataInput in, byte expectedVersion, OnlineModelSpec spec, String algorithm) throws IOException {
    byte version = in.readByte();
    if (version != expectedVersion) {
      throw new IOException(algorithm + " state version " + version + " is unknown (this build reads " + expectedVersion + ")");
    }
    byte[] fingerprint = new byte[in.readUnsignedByte()];
    in.readFully(fingerprint);
    if (!Arrays.equals(fingerprint, spec.fingerprint())) {
      throw new IOException(algorithm + " state of model " + spec.modelId()
          + " was written under a different spec (dimension, loss, domain, budget, horizon, clipping or"
          + " accountant changed); it cannot be resumed under this one");
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

  static void writeLedger(DataOutput out, PrivacyLedger ledger) throws IOException {
    byte[] bytes = ledger.toBytes();
    out.writeShort(bytes.length);
    out.write(bytes);
  }

  static PrivacyLedger readLedger(DataInput in) throws IOException {
    byte[] bytes = new byte[in.readUnsignedShort()];
    in.readFully(bytes);
    try {
      return PrivacyLedger.fromBytes(bytes);
    } catch (IllegalArgumentException e) {
      throw new IOException("corrupt privacy ledger in state: " + e.getMessage(), e);
    }
  }
}
