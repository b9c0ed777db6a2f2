package org.dpstream.service.serde;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.specific.SpecificData;

/**
 * Writes records as the natural JSON that {@link JsonRecordReader} reads (see {@link NaturalJson}):
 * for README examples, the demo's printed releases, and clients that prefer JSON.
 *
 * <p>Thread-safe: the Jackson factory and the Avro model are shared and immutable.
 */
final class JsonRecordWriter {

  private static final JsonFactory JSON = new JsonFactory();

  private final SpecificData model;

  JsonRecordWriter(SpecificData model) {
    this.model = model;
  }

  String write(IndexedRecord record) {
    StringWriter out = new StringWriter();
    try (JsonGenerator generator = JSON.createGenerator(out)) {
      writeValue(record.getSchema(), record, generator);
    } catch (IOException e) {
      throw new UncheckedIOException("writing JSON to a string failed", e);
    }
    return out.toString();
  }

  private void writeValue(Schema schema, Object value, JsonGenerator out) throws IOException {
    switch (schema.getType()) {
      case RECORD -> writeRecord(schema, (IndexedRecord) value, out);
      case UNION -> writeValue(schema.getTypes().get(model.resolveUnion(schema, value)), value, out);
      case ARRAY -> {
        out.writeStartArray();
        for (Object element : (Collection<?>) value) {
          writeValue(schema.getElementType(), element, out);
        }
        out.writeEndArray();
      }
      case MAP -> {
        out.writeStartObject();
        for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
          out.writeFieldName(entry.getKey().toString());
          writeValue(schema.getValueType(), entry.getValue(), out);
        }
        out.writeEndObject();
      }
      case STRING, ENUM -> out.writeString(value.toString());
      case BYTES -> out.writeString(Base64.getEncoder().encodeToString(bytesOf((ByteBuffer) value)));
      case FIXED -> out.writeString(Base64.getEncoder().encodeToString(((GenericFixed) value).bytes()));
      case INT -> out.writeNumber((Integer) value);
      case LONG -> out.writeNumber((Long) value);
      case DOUBLE -> writeDouble((Double) value, out);
      case FLOAT -> writeDouble((Float) value, out);
      case BOOLEAN -> out.writeBoolean((Boolean) value);
      case NULL -> out.writeNull();
    }
  }

  private void writeRecord(Schema schema, IndexedRecord record, JsonGenerator out) throws IOException {
    Optional<Schema.Field> unwrapped = NaturalJson.unwrappableField(schema);
    if (unwrapped.isPresent()) {
      writeValue(unwrapped.get().schema(), record.get(unwrapped.get().pos()), out);
      return;
    }
    out.writeStartObject();
    for (Schema.Field field : schema.getFields()) {
      Object value = record.get(field.pos());
      if (value == null && NaturalJson.omittableWhenNull(field)) {
        continue;
      }
      out.writeFieldName(field.name());
      writeValue(field.schema(), value, out);
    }
    out.writeEndObject();
  }

  private static void writeDouble(double value, JsonGenerator out) throws IOException {
    if (Double.isFinite(value)) {
      out.writeNumber(value);
    } else {
      out.writeString(NaturalJson.nonFiniteName(value));
    }
  }

  private static byte[] bytesOf(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }
}
