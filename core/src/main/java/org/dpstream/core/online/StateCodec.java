package org.dpstream.core.online;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.core.privacy.random.KeyCheck;
import org.dpstream.core.state.VersionedState;

/** Field encodings shared by the estimators' state formats. */
final class StateCodec {

  private StateCodec() {}

  /**
   * @param fingerprint the spec's {@link OnlineModelSpec#fingerprint()}, computed once by the estimator: a state is
   *     written on every step, and the digest (a canonical string and a SHA-256) was a measurable share of a step
   */
  static void writeHeader(DataOutput out, byte version, byte[] fingerprint, KeyCheck key, long epoch, byte[] law)
      throws IOException {
    VersionedState.writeHeader(out, version, fingerprint, key, epoch, law);
  }

  /**
   * Reads and checks the header: the version this build writes and the spec the state was made under; its noise
   * binding is the caller's to check ({@link VersionedState.Binding#resume}).
   */
  static VersionedState.Binding readHeader(DataInput in, byte expectedVersion, OnlineModelSpec spec, String algorithm)
      throws IOException {
    return VersionedState.readHeader(in, expectedVersion, spec.fingerprint(), describe(algorithm, spec));
  }

  /** How messages name a state, e.g. {@code dp-tofw state of model m}. */
  static String describe(String algorithm, OnlineModelSpec spec) {
    return algorithm + " state of model " + spec.modelId();
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
