package org.dpstream.service.serde;

import org.dpstream.schemas.BanditStepRelease;
import org.dpstream.schemas.DdaCheckpoint;
import org.dpstream.schemas.DdaGossipMessage;
import org.dpstream.schemas.DecidedRequest;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.PrivacyLedger;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.schemas.Reward;
import org.dpstream.schemas.Sample;

/**
 * The serde of every record type in schemas/src/main/avro. Inputs from producers we do not control
 * reject NaN and infinities; records the service writes itself keep them (see
 * {@link NonFiniteNumbers}).
 */
public final class DpSerdes {

  private DpSerdes() {}

  public static SchemaSerde<Sample> sample() {
    return SchemaSerde.of(Sample.class, NonFiniteNumbers.REJECT);
  }

  public static SchemaSerde<DecisionRequest> decisionRequest() {
    return SchemaSerde.of(DecisionRequest.class, NonFiniteNumbers.REJECT);
  }

  public static SchemaSerde<Reward> reward() {
    return SchemaSerde.of(Reward.class, NonFiniteNumbers.REJECT);
  }

  public static SchemaSerde<ModelRelease> modelRelease() {
    return SchemaSerde.of(ModelRelease.class, NonFiniteNumbers.ALLOW);
  }

  /** A bandit's release step, every arm in one record (written by the service). */
  public static SchemaSerde<BanditStepRelease> banditStepRelease() {
    return SchemaSerde.of(BanditStepRelease.class, NonFiniteNumbers.ALLOW);
  }

  public static SchemaSerde<PrivacyLedger> privacyLedger() {
    return SchemaSerde.of(PrivacyLedger.class, NonFiniteNumbers.ALLOW);
  }

  public static SchemaSerde<DecisionResponse> decisionResponse() {
    return SchemaSerde.of(DecisionResponse.class, NonFiniteNumbers.ALLOW);
  }

  /** Written by the service's deciders, whose contexts were decoded with non-finite numbers rejected. */
  public static SchemaSerde<DecidedRequest> decidedRequest() {
    return SchemaSerde.of(DecidedRequest.class, NonFiniteNumbers.REJECT);
  }

  public static SchemaSerde<RejectedRecord> rejectedRecord() {
    return SchemaSerde.of(RejectedRecord.class, NonFiniteNumbers.ALLOW);
  }

  /** DP-DDA round messages between nodes; a non-finite value would poison every neighbour's consensus. */
  public static SchemaSerde<DdaGossipMessage> ddaGossipMessage() {
    return SchemaSerde.of(DdaGossipMessage.class, NonFiniteNumbers.REJECT);
  }

  public static SchemaSerde<DdaCheckpoint> ddaCheckpoint() {
    return SchemaSerde.of(DdaCheckpoint.class, NonFiniteNumbers.ALLOW);
  }
}
