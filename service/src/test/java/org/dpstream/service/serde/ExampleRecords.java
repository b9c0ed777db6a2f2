package org.dpstream.service.serde;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.dpstream.schemas.DecisionPhase;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.DenseFeatures;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.PrivacyLedger;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.schemas.Reward;
import org.dpstream.schemas.Sample;
import org.dpstream.schemas.SparseFeatures;

/** One realistic instance of every record type, for round-trip tests. */
final class ExampleRecords {

  private ExampleRecords() {}

  static Sample denseSample() {
    return new Sample(new DenseFeatures(List.of(0.1, 0.2)), 1.0, null, null);
  }

  static Sample sparseSample() {
    return new Sample(new SparseFeatures(1000, List.of(3, 17), List.of(0.5, -1.0)), 0.0, 1_700_000_000_000L, null);
  }

  static PrivacyLedger ledger() {
    return new PrivacyLedger(1.0, 1e-6, "zcdp", 1024L, 2L, 0.75, 1e-7, null, null, null, null, null);
  }

  /** p = Infinity is legitimate (l_inf geometry), so releases must keep non-finite values. */
  static ModelRelease release() {
    return new ModelRelease("model-a", 2049L, 2L, List.of(0.25, -0.5, 1e-300), "dp-tofw",
        Double.POSITIVE_INFINITY, ledger());
  }

  static RejectedRecord rejected() {
    return new RejectedRecord("MISSING_FIELD", "missing field label", ByteBuffer.wrap("model-a".getBytes(StandardCharsets.UTF_8)),
        ByteBuffer.wrap(new byte[] {(byte) 0xC3, 0x01, 0x7F}), "dp.samples", 3, 42L);
  }

  static DecisionRequest decisionRequest() {
    return new DecisionRequest("req-1", List.of(0.3, -0.7, 1.0), 1_700_000_000_123L, null, null);
  }

  static DecisionResponse decisionResponse() {
    return new DecisionResponse("req-1", 2, DecisionPhase.GREEDY, 310L, null);
  }

  static Reward reward() {
    return new Reward("req-1", 0.5, null, null);
  }
}
