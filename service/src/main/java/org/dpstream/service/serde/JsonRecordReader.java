package org.dpstream.service.serde;

import static org.dpstream.service.serde.NaturalJson.child;
import static org.dpstream.service.serde.NaturalJson.describe;
import static org.dpstream.service.serde.NaturalJson.element;
import static org.dpstream.service.serde.NaturalJson.kindOf;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.specific.SpecificData;

/**
 * Reads the natural JSON of an Avro schema (see {@link NaturalJson}) into the generated record
 * classes, by walking the schema: one converter for every record type instead of code per type.
 *
 * <p>Strict by design, since every accepted record reaches a model: unknown fields, duplicate keys,
 * content after the object, fractions for ints and strings for numbers are all rejected, each with its
 * {@link RejectReason} and the path of the offending field. Integers are accepted for doubles.
 *
 * <p>Thread-safe: the Jackson mapper and the Avro model are shared, immutable once built.
 */
final class JsonRecordReader {

  /**
   * NaN and Infinity tokens are parsed rather than refused by Jackson so that the rejection names
   * the field and says why, instead of Jackson's advice to enable a parser feature.
   */
  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .build();

  private final SpecificData model;
  private final NonFiniteNumbers nonFinite;

  JsonRecordReader(SpecificData model, NonFiniteNumbers nonFinite) {
    this.model = model;
    this.nonFinite = nonFinite;
  }

  /** Decodes one JSON document that must be an object of {@code recordSchema}. */
  Object read(byte[] json, Schema recordSchema) {
    JsonNode root;
    try (JsonParser parser = MAPPER.createParser(json)) {
      root = MAPPER.readTree(parser);
      if (root != null && parser.nextToken() != null) {
        throw new DecodeException(RejectReason.UNDECODABLE, "content after the JSON object");
      }
    } catch (JacksonException e) {
      // The original message has no source excerpt, so no input value leaks into dp.rejected's message.
      throw new DecodeException(RejectReason.UNDECODABLE,
          "neither Avro single-object encoding nor valid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new DecodeException(RejectReason.UNDECODABLE, "unreadable JSON input", e);
    }
    if (root == null || root.isMissingNode()) {
      throw new DecodeException(RejectReason.UNDECODABLE, "empty input");
    }
    if (!root.isObject()) {
      throw new DecodeException(RejectReason.WRONG_TYPE,
          "expected a JSON object for " + recordSchema.getName() + ", got " + kindOf(root));
    }
    return readRecord(recordSchema, root, "");
  }

  private Object readValue(Schema schema, JsonNode node, String path) {
    return switch (schema.getType()) {
      case RECORD -> readRecord(schema, node, path);
      case UNION -> readUnion(schema, node, path);
      case ARRAY -> readArray(schema, node, path);
      case MAP -> readMap(schema, node, path);
      case ENUM -> readEnum(schema, node, path);
      case STRING -> requireKind(node.isTextual(), "a string", node, path).textValue();
      case BYTES -> ByteBuffer.wrap(readBase64(node, path));
      case FIXED -> readFixed(schema, node, path);
      case INT -> readInt(node, path);
      case LONG -> readLong(node, path);
      case DOUBLE -> readDouble(node, path);
      case FLOAT -> readFloat(node, path);
      case BOOLEAN -> requireKind(node.isBoolean(), "a boolean", node, path).booleanValue();
      case NULL -> {
        requireKind(node.isNull(), "null", node, path);
        yield null;
      }
    };
  }

  private Object readRecord(Schema schema, JsonNode node, String path) {
    if (!node.isObject()) {
      Optional<Schema.Field> unwrapped = NaturalJson.unwrappableField(schema);
      if (unwrapped.isEmpty()) {
        throw wrongType("an object (" + schema.getName() + ")", node, path);
      }
      IndexedRecord record = (IndexedRecord) model.newRecord(null, schema);
      record.put(unwrapped.get().pos(), readValue(unwrapped.get().schema(), node, path));
      return record;
    }
    rejectUnknownFields(schema, node, path);
    IndexedRecord record = (IndexedRecord) model.newRecord(null, schema);
    for (Schema.Field field : schema.getFields()) {
      JsonNode value = node.get(field.name());
      String fieldPath = child(path, field.name());
      if (value != null) {
        record.put(field.pos(), readValue(field.schema(), value, fieldPath));
      } else if (field.hasDefaultValue()) {
        record.put(field.pos(), model.getDefaultValue(field));
      } else {
        throw new DecodeException(RejectReason.MISSING_FIELD,
            "missing field " + fieldPath + " (" + schema.getName() + " requires it)");
      }
    }
    return record;
  }

  private static void rejectUnknownFields(Schema schema, JsonNode node, String path) {
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (schema.getField(name) == null) {
        throw new DecodeException(RejectReason.UNKNOWN_FIELD, "unknown field " + child(path, name)
            + "; " + schema.getName() + " has " + fieldNames(schema));
      }
    }
  }

  /**
   * Untagged unions: null for a nullable union; otherwise the branches whose shape fits the JSON
   * node, preferring one whose required fields are all present. With none complete, the first that
   * fits is decoded so the rejection names the field that is missing.
   */
  private Object readUnion(Schema union, JsonNode node, String path) {
    if (node.isNull()) {
      if (union.getTypes().stream().anyMatch(s -> s.getType() == Schema.Type.NULL)) {
        return null;
      }
      throw wrongType(describeUnion(union), node, path);
    }
    List<Schema> fitting = union.getTypes().stream()
        .filter(branch -> branch.getType() != Schema.Type.NULL && fits(branch, node))
        .toList();
    if (fitting.isEmpty()) {
      throw wrongType(describeUnion(union), node, path);
    }
    Schema chosen = fitting.stream()
        .filter(branch -> isComplete(branch, node))
        .findFirst()
        .orElse(fitting.get(0));
    return readValue(chosen, node, path);
  }

  /** Whether the node has the shape of the schema (not whether every value in it is valid). */
  private boolean fits(Schema schema, JsonNode node) {
    return switch (schema.getType()) {
      case RECORD -> node.isObject()
          ? allFieldsKnown(schema, node)
          : NaturalJson.unwrappableField(schema).map(f -> fits(f.schema(), node)).orElse(false);
      case ARRAY -> node.isArray();
      case MAP -> node.isObject();
      case STRING, ENUM, BYTES, FIXED -> node.isTextual();
      case INT, LONG -> node.isIntegralNumber();
      case DOUBLE, FLOAT -> node.isNumber()
          || (nonFinite == NonFiniteNumbers.ALLOW && node.isTextual()
              && NaturalJson.parseNonFiniteName(node.textValue()) != null);
      case BOOLEAN -> node.isBoolean();
      case NULL -> node.isNull();
      case UNION -> false; // Avro forbids a union directly inside a union.
    };
  }

  private static boolean allFieldsKnown(Schema record, JsonNode node) {
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      if (record.getField(names.next()) == null) {
        return false;
      }
    }
    return true;
  }

  private static boolean isComplete(Schema schema, JsonNode node) {
    if (schema.getType() != Schema.Type.RECORD || !node.isObject()) {
      return true;
    }
    return schema.getFields().stream().allMatch(f -> f.hasDefaultValue() || node.has(f.name()));
  }

  private List<Object> readArray(Schema schema, JsonNode node, String path) {
    requireKind(node.isArray(), "an array", node, path);
    List<Object> values = new ArrayList<>(node.size());
    for (int i = 0; i < node.size(); i++) {
      values.add(readValue(schema.getElementType(), node.get(i), element(path, i)));
    }
    return values;
  }

  private Map<String, Object> readMap(Schema schema, JsonNode node, String path) {
    requireKind(node.isObject(), "an object", node, path);
    Map<String, Object> values = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> entry : node.properties()) {
      values.put(entry.getKey(), readValue(schema.getValueType(), entry.getValue(), child(path, entry.getKey())));
    }
    return values;
  }

  private Object readEnum(Schema schema, JsonNode node, String path) {
    requireKind(node.isTextual(), "a string", node, path);
    if (!schema.hasEnumSymbol(node.textValue())) {
      throw new DecodeException(RejectReason.WRONG_TYPE,
          describe(path) + ": expected one of " + schema.getEnumSymbols());
    }
    return model.createEnum(node.textValue(), schema);
  }

  private Object readFixed(Schema schema, JsonNode node, String path) {
    byte[] bytes = readBase64(node, path);
    if (bytes.length != schema.getFixedSize()) {
      throw new DecodeException(RejectReason.WRONG_TYPE,
          describe(path) + ": expected " + schema.getFixedSize() + " bytes, got " + bytes.length);
    }
    return model.createFixed(null, bytes, schema);
  }

  private static byte[] readBase64(JsonNode node, String path) {
    requireKind(node.isTextual(), "a base64 string", node, path);
    try {
      return Base64.getDecoder().decode(node.textValue());
    } catch (IllegalArgumentException e) {
      throw new DecodeException(RejectReason.WRONG_TYPE, describe(path) + ": expected a base64 string");
    }
  }

  private static int readInt(JsonNode node, String path) {
    requireKind(node.isIntegralNumber(), "an integer", node, path);
    if (!node.canConvertToInt()) {
      throw new DecodeException(RejectReason.WRONG_TYPE, describe(path) + ": integer out of the int range");
    }
    return node.intValue();
  }

  private static long readLong(JsonNode node, String path) {
    requireKind(node.isIntegralNumber(), "an integer", node, path);
    if (!node.canConvertToLong()) {
      throw new DecodeException(RejectReason.WRONG_TYPE, describe(path) + ": integer out of the long range");
    }
    return node.longValue();
  }

  private double readDouble(JsonNode node, String path) {
    double value;
    if (node.isNumber()) {
      value = node.doubleValue();
    } else if (nonFinite == NonFiniteNumbers.ALLOW && node.isTextual()
        && NaturalJson.parseNonFiniteName(node.textValue()) != null) {
      return NaturalJson.parseNonFiniteName(node.textValue());
    } else {
      throw wrongType("a number", node, path);
    }
    return requireFiniteIfRejecting(value, path);
  }

  private float readFloat(JsonNode node, String path) {
    double value = readDouble(node, path);
    return (float) requireFiniteIfRejecting((float) value, path);
  }

  /** Also catches literals such as 1e400, which Jackson parses to infinity. */
  private double requireFiniteIfRejecting(double value, String path) {
    if (nonFinite == NonFiniteNumbers.REJECT && !Double.isFinite(value)) {
      throw new DecodeException(RejectReason.NON_FINITE_NUMBER,
          describe(path) + ": " + NaturalJson.nonFiniteName(value) + " is not accepted; send a finite number");
    }
    return value;
  }

  private static JsonNode requireKind(boolean ok, String expected, JsonNode node, String path) {
    if (!ok) {
      throw wrongType(expected, node, path);
    }
    return node;
  }

  private static DecodeException wrongType(String expected, JsonNode node, String path) {
    return new DecodeException(RejectReason.WRONG_TYPE,
        describe(path) + ": expected " + expected + ", got " + kindOf(node));
  }

  private static String describeUnion(Schema union) {
    List<String> branches = new ArrayList<>();
    for (Schema branch : union.getTypes()) {
      branches.add(branch.getType() == Schema.Type.RECORD
          ? branch.getName() + " " + fieldNames(branch)
          : branch.getType().getName());
    }
    return "one of " + String.join(", ", branches);
  }

  private static List<String> fieldNames(Schema record) {
    return record.getFields().stream().map(Schema.Field::name).toList();
  }
}
