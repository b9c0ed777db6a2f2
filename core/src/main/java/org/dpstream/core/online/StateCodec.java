package org.dpstream.core.online;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.core.state.VersionedState;

/** Field encodings shared by the estimators' state formats. */
final class StateCodec {

  private StateCodec() {}

  /**
   * @param fingerprint the spec's {@link OnlineModelSpec#fingerprint()}, computed once by the estimator: a state is
   *     written on every step, and the digest (a canonical string and a SHA-256) was a measurable share of a step
   */
  static void writeHeader(DataOutput out, byte version, byte[] fingerprint) throws IOException {
    VersionedState.writeHeader(out, version, fingerprint);
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
