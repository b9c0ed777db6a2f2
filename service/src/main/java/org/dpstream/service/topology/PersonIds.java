package org.dpstream.service.topology;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.dpstream.schemas.Sample;
import org.dpstream.service.config.PrivacyUnit;

/** Where a person-level model reads a sample's person: the configured header, or the sample's userId field. */
final class PersonIds {

  private PersonIds() {}

  /** The person's id, or null if the sample has none (absent, or blank). */
  static String of(PrivacyUnit unit, Sample sample, Headers headers) {
    String id;
    if (unit.header() != null) {
      Header header = headers.lastHeader(unit.header());
      id = header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    } else {
      id = sample.getUserId();
    }
    return id == null || id.isBlank() ? null : id;
  }

  /** Where the id is read, for messages: never the id itself. */
  static String where(PrivacyUnit unit) {
    return unit.header() != null ? "the Kafka header " + unit.header() : "the userId field";
  }
}
