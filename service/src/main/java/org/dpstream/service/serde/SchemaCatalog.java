package org.dpstream.service.serde;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.avro.specific.SpecificRecord;
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
 * Every dpstream record type, found by the schema fingerprint that Avro single-object encoding
 * carries: to read a topic without being told what it holds. The serdes keep non-finite numbers, so
 * a record is shown as it was written, whether or not the service would accept it.
 */
public final class SchemaCatalog {

  private static final List<Class<? extends SpecificRecord>> TYPES = List.of(
      Sample.class, ModelRelease.class, BanditStepRelease.class, PrivacyLedger.class, RejectedRecord.class, DecisionRequest.class,
      DecisionResponse.class, Reward.class, DecidedRequest.class, DdaGossipMessage.class, DdaCheckpoint.class);

  private final Map<Long, SchemaSerde<? extends SpecificRecord>> byFingerprint;

  private SchemaCatalog(List<SchemaSerde<? extends SpecificRecord>> serdes) {
    // Every version of every schema (a topic may hold records of an older build).
    this.byFingerprint = serdes.stream()
        .flatMap(serde -> serde.fingerprints().stream().map(fingerprint -> Map.entry(fingerprint, serde)))
        .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, Map.Entry::getValue));
  }

  /** The schemas in schemas/src/main/avro. */
  public static SchemaCatalog dpstream() {
    return new SchemaCatalog(TYPES.stream()
        .<SchemaSerde<? extends SpecificRecord>>map(type -> SchemaSerde.of(type, NonFiniteNumbers.ALLOW))
        .toList());
  }

  /** The serde of the schema with this CRC-64-AVRO fingerprint, if it is one of dpstream's. */
  public Optional<SchemaSerde<? extends SpecificRecord>> forFingerprint(long fingerprint) {
    return Optional.ofNullable(byFingerprint.get(fingerprint));
  }

  /** The full names of the schemas in the catalogue. */
  public List<String> schemaNames() {
    return byFingerprint.values().stream().map(serde -> serde.schema().getFullName()).distinct().sorted().toList();
  }
}
