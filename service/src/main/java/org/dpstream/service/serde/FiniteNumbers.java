package org.dpstream.service.serde;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
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
    NonFinite found = find(record.getSchema(), record);
    if (found != null) {
      throw new DecodeException(RejectReason.NON_FINITE_NUMBER,
          NaturalJson.describe(found.path()) + ": " + NaturalJson.nonFiniteName(found.number) + " is not accepted");
    }
  }

  /**
   * The first non-finite number in {@code value}, or null. Its path is collected on the way out, so a record that is
   * all finite (every accepted sample) builds no path string.
   */
  private NonFinite find(Schema schema, Object value) {
    switch (schema.getType()) {
      case RECORD -> {
        IndexedRecord record = (IndexedRecord) value;
        for (Schema.Field field : schema.getFields()) {
          NonFinite found = find(field.schema(), record.get(field.pos()));
          if (found != null) {
            return found.in(field.name());
          }
        }
        return null;
      }
      case UNION -> {
        return find(schema.getTypes().get(model.resolveUnion(schema, value)), value);
      }
      case ARRAY -> {
        int i = 0;
        for (Object element : (Collection<?>) value) {
          NonFinite found = find(schema.getElementType(), element);
          if (found != null) {
            return found.in(i);
          }
          i++;
        }
        return null;
      }
      case MAP -> {
        for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
          NonFinite found = find(schema.getValueType(), entry.getValue());
          if (found != null) {
            return found.in(entry.getKey().toString());
          }
        }
        return null;
      }
      case DOUBLE, FLOAT -> {
        double number = ((Number) value).doubleValue();
        return Double.isFinite(number) ? null : new NonFinite(number);
      }
      default -> {
        // Strings, integers, enums and bytes cannot be non-finite.
        return null;
      }
    }
  }

  /** A non-finite number and the steps to it, innermost first: field names and array indices. */
  private static final class NonFinite {
    private final double number;
    private final List<Object> steps = new ArrayList<>();

    NonFinite(double number) {
      this.number = number;
    }

    NonFinite in(Object step) {
      steps.add(step);
      return this;
    }

    String path() {
      String path = "";
      for (int i = steps.size() - 1; i >= 0; i--) {
        path = steps.get(i) instanceof Integer index ? NaturalJson.element(path, index)
            : NaturalJson.child(path, (String) steps.get(i));
      }
      return path;
    }
  }
}
