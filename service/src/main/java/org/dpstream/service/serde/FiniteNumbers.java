package org.dpstream.service.serde;

import java.util.Collection;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.specific.SpecificData;

/**
 * Checks that every double and float in a decoded Avro record is finite. JSON input is checked as
 * it is read; Avro input can carry NaN and infinities in its binary doubles, so it needs this walk.
 */
final class FiniteNumbers {

  private final SpecificData model;

  FiniteNumbers(SpecificData model) {
    this.model = model;
  }

  void require(IndexedRecord record) {
    require(record.getSchema(), record, "");
  }

  private void require(Schema schema, Object value, String path) {
    switch (schema.getType()) {
      case RECORD -> {
        IndexedRecord record = (IndexedRecord) value;
        for (Schema.Field field : schema.getFields()) {
          require(field.schema(), record.get(field.pos()), NaturalJson.child(path, field.name()));
        }
      }
      case UNION -> require(schema.getTypes().get(model.resolveUnion(schema, value)), value, path);
      case ARRAY -> {
        int i = 0;
        for (Object element : (Collection<?>) value) {
          require(schema.getElementType(), element, NaturalJson.element(path, i++));
        }
      }
      case MAP -> {
        for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
          require(schema.getValueType(), entry.getValue(), NaturalJson.child(path, entry.getKey().toString()));
        }
      }
      case DOUBLE, FLOAT -> {
        double number = ((Number) value).doubleValue();
        if (!Double.isFinite(number)) {
          throw new DecodeException(RejectReason.NON_FINITE_NUMBER,
              NaturalJson.describe(path) + ": " + NaturalJson.nonFiniteName(number) + " is not accepted");
        }
      }
      default -> {
        // Strings, integers, enums and bytes cannot be non-finite.
      }
    }
  }
}
