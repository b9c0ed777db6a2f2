package org.dpstream.service.serde;

import java.util.Optional;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;

/**
 * The rules of the "natural" JSON of an Avro schema, shared by {@link JsonRecordReader} and
 * {@link JsonRecordWriter} so that what one writes the other reads back:
 *
 * <ul>
 *   <li>records are objects keyed by field name; a field whose default is null may be left out;
 *   <li>a record with a single field that is not itself a record may also be written as that
 *       field's bare value, so dense features are {@code [0.1, 0.2]} rather than
 *       {@code {"values": [0.1, 0.2]}};
 *   <li>unions are untagged: {@code [null, X]} is null or an X, and a union of records is told
 *       apart by which branch's fields are present;
 *   <li>bytes and fixed are base64 strings, enums their symbol;
 *   <li>non-finite doubles, where allowed at all, are the strings "NaN", "Infinity", "-Infinity"
 *       (as in protobuf's JSON mapping), since JSON has no such numbers.
 * </ul>
 *
 * Unlike Avro's own JSON encoding, which tags every union branch ({"double": 1.0}), this is what a
 * client written without Avro produces.
 */
final class NaturalJson {

  private NaturalJson() {}

  /** The field a record may be unwrapped to, if it has exactly one that is not a record. */
  static Optional<Schema.Field> unwrappableField(Schema record) {
    if (record.getFields().size() != 1) {
      return Optional.empty();
    }
    Schema.Field only = record.getFields().get(0);
    return only.schema().getType() == Schema.Type.RECORD ? Optional.empty() : Optional.of(only);
  }

  /** Whether an absent field means null: a field may be omitted exactly when its default is null. */
  static boolean omittableWhenNull(Schema.Field field) {
    return field.hasDefaultValue() && field.defaultVal() == JsonProperties.NULL_VALUE;
  }

  static String nonFiniteName(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    return value > 0 ? "Infinity" : "-Infinity";
  }

  /** The value of "NaN", "Infinity" or "-Infinity", or null for any other string. */
  static Double parseNonFiniteName(String text) {
    return switch (text) {
      case "NaN" -> Double.NaN;
      case "Infinity" -> Double.POSITIVE_INFINITY;
      case "-Infinity" -> Double.NEGATIVE_INFINITY;
      default -> null;
    };
  }

  /** A short, value-free description of a JSON node's kind for error messages. */
  static String kindOf(com.fasterxml.jackson.databind.JsonNode node) {
    return switch (node.getNodeType()) {
      case ARRAY -> "an array";
      case OBJECT, POJO -> "an object";
      case STRING -> "a string";
      case NUMBER -> node.isIntegralNumber() ? "an integer" : "a fraction";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      case BINARY -> "binary";
      case MISSING -> "nothing";
    };
  }

  /** A path for messages: "features.values[3]". */
  static String child(String path, String field) {
    return path.isEmpty() ? field : path + "." + field;
  }

  static String element(String path, int index) {
    return path + "[" + index + "]";
  }

  static String describe(String path) {
    return path.isEmpty() ? "the record" : path;
  }
}
