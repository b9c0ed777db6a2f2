package org.dpstream.service.consume;

import com.fasterxml.jackson.databind.JsonNode;

/** What {@link ValueReader} made of a record's value. */
sealed interface ReadValue {

  /** A null value: a tombstone. */
  record Tombstone() implements ReadValue {}

  /** A value shown as JSON: the natural JSON of an Avro record, or a JSON value as it was written. */
  record Json(JsonNode json) implements ReadValue {}

  /**
   * A value that is neither a dpstream Avro record nor JSON, shown as it is.
   *
   * @param reason why it could not be read, without any of its content
   * @param bytes the raw value
   */
  record Unreadable(String reason, byte[] bytes) implements ReadValue {}
}
