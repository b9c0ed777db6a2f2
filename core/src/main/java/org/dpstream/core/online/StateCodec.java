package org.dpstream.core.online;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.core.state.VersionedState;

/** Field encodings shared by the estimators' state formats. */
final class StateCodec {

  private StateCodec() {}

  static void writeHeader(DataOutput out, byte version, OnlineModelSpec spec) throws IOException {
    VersionedState.writeHeader(out, version, spec.fingerprint());
  }

  /** Reads and checks the header: the version this build writes and the spec the state was made under. */
  static void readHeader(DataInput in, byte expectedVersion, OnlineModelSpec spec, String algorithm) throws IOException {
    VersionedState.readHeader(in, expectedVersion, spec.fingerprint(), algorithm + " state of model " + spec.modelId());
  }

  static void writeVector(DataOutput out, double[] vector) throws IOException {
    VersionedState.writeVector(out, vector);
  }

  static double[] readVector(DataInput in, int dimension) throws IOException {
    return VersionedState.readVector(in, dimension);
  }

  static void writeLedger(DataOutput out, PrivacyLedger ledger) throws IOException {
    ledger.writeTo(out);
  }

  static PrivacyLedger readLedger(DataInput in) throws IOException {
    return PrivacyLedger.readFrom(in);
  }
}
