package org.dpstream.service.topology;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.dpstream.schemas.Sample;
import org.dpstream.service.config.PrivacyUnit;

/**
 * Where a person-level model or bandit reads a record's person: the configured Kafka header, or the record's userId
 * field (a sample's, a decision request's).
 */
public final class PersonIds {

  private PersonIds() {}

  /** The person's id, or null if the sample has none (absent, or blank). */
  static String of(PrivacyUnit unit, Sample sample, Headers headers) {
    return of(unit, sample.getUserId(), headers);
  }

  /**
   * The person's id, or null if the record has none (absent, or blank).
   *
   * @param userId the record's userId field (null if absent)
   */
  public static String of(PrivacyUnit unit, String userId, Headers headers) {
    String id;
    if (unit.header() != null) {
      Header header = headers.lastHeader(unit.header());
      id = header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    } else {
      id = userId;
    }
    return id == null || id.isBlank() ? null : id;
  }

  /** Where the id is read, for messages: never the id itself. */
  public static String where(PrivacyUnit unit) {
    return unit.header() != null ? "the Kafka header " + unit.header() : "the userId field";
  }
}
