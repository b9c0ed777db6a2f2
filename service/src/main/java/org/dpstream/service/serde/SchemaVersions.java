package org.dpstream.service.serde;

import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;

/**
 * The versions of a record schema, read off the schema itself: a field added after the first version carries
 * {@code "since": n} in its .avsc (Avro keeps the property and leaves it out of the fingerprint), and version v of
 * the schema is the schema without the fields added after v, at every depth.
 *
 * <p>Why: Avro single-object encoding names the writer's schema by its fingerprint, and a reader resolves only the
 * fingerprints it knows. So that producers of an older build keep being read, the serde's decoder knows every
 * version; so that readers of an older build keep reading what this build writes, a record is written in the oldest
 * version that holds it (its newer fields all null, i.e. at their default). Added fields must be optional (a union
 * with null first, default null) and appended after the fields they follow, so that every field keeps its position.
 */
final class SchemaVersions {

  /** The field property naming the version that added the field (absent: version 1). */
  static final String SINCE = "since";

  private final Schema current;
  private final List<Schema> byVersion;
  private final Map<Schema, Boolean> versioned = new IdentityHashMap<>();

  SchemaVersions(Schema current) {
    this.current = current;
    int newest = newestVersion(current, new IdentityHashMap<>());
    List<Schema> versions = new ArrayList<>();
    for (int version = 1; version < newest; version++) {
      versions.add(at(current, version, new IdentityHashMap<>()));
    }
    versions.add(current);
    this.byVersion = List.copyOf(versions);
    hasVersionedFields(current);
  }

  /** Every version, oldest first; the last is the current schema. */
  List<Schema> all() {
    return byVersion;
  }

  /** The newest version. */
  int newest() {
    return byVersion.size();
  }

  /** The schema of {@code version} (1 is the first). */
  Schema schema(int version) {
    return byVersion.get(version - 1);
  }

  /** The oldest version that holds the record: every field added after it is null in the record. */
  int oldestHolding(IndexedRecord record) {
    return byVersion.size() == 1 ? 1 : needed(current, record);
  }

  private int needed(Schema schema, Object value) {
    if (value == null || !versioned.getOrDefault(schema, false)) {
      return 1;
    }
    return switch (schema.getType()) {
      case RECORD -> {
        IndexedRecord record = (IndexedRecord) value;
        int needed = 1;
        for (Schema.Field field : schema.getFields()) {
          Object fieldValue = record.get(field.pos());
          if (fieldValue != null) {
            needed = Math.max(needed, Math.max(since(field), needed(field.schema(), fieldValue)));
          }
        }
        yield needed;
      }
      case UNION -> {
        int needed = 1;
        for (Schema branch : schema.getTypes()) {
          if (branch.getType() == Schema.Type.RECORD && value instanceof IndexedRecord record
              && record.getSchema().getFullName().equals(branch.getFullName())) {
            needed = Math.max(needed, needed(branch, value));
          } else if (branch.getType() == Schema.Type.ARRAY && value instanceof Collection<?>) {
            needed = Math.max(needed, needed(branch, value));
          }
        }
        yield needed;
      }
      // An element type without versioned fields needs version 1 whatever the elements (a release's parameters).
      case ARRAY -> {
        int needed = 1;
        if (!versioned.getOrDefault(schema.getElementType(), false)) {
          yield needed;
        }
        for (Object element : (Collection<?>) value) {
          needed = Math.max(needed, needed(schema.getElementType(), element));
        }
        yield needed;
      }
      case MAP -> {
        int needed = 1;
        if (!versioned.getOrDefault(schema.getValueType(), false)) {
          yield needed;
        }
        for (Object element : ((Map<?, ?>) value).values()) {
          needed = Math.max(needed, needed(schema.getValueType(), element));
        }
        yield needed;
      }
      default -> 1;
    };
  }

  /** Whether the schema holds a field added after version 1, at any depth (memoised: records are walked once). */
  private boolean hasVersionedFields(Schema schema) {
    Boolean known = versioned.get(schema);
    if (known != null) {
      return known;
    }
    versioned.put(schema, false); // a recursive reference adds nothing new
    boolean found = switch (schema.getType()) {
      case RECORD -> {
        boolean any = false;
        for (Schema.Field field : schema.getFields()) {
          any |= since(field) > 1;
          any |= hasVersionedFields(field.schema());
        }
        yield any;
      }
      case UNION -> {
        boolean any = false;
        for (Schema branch : schema.getTypes()) {
          any |= hasVersionedFields(branch);
        }
        yield any;
      }
      case ARRAY -> hasVersionedFields(schema.getElementType());
      case MAP -> hasVersionedFields(schema.getValueType());
      default -> false;
    };
    versioned.put(schema, found);
    return found;
  }

  static int since(Schema.Field field) {
    Object since = field.getObjectProp(SINCE);
    if (since == null) {
      return 1;
    }
    if (!(since instanceof Number number) || number.intValue() < 2) {
      throw new IllegalStateException("field " + field.name() + ": \"" + SINCE + "\" must be a version from 2, got "
          + since);
    }
    return number.intValue();
  }

  private static int newestVersion(Schema schema, Map<Schema, Boolean> seen) {
    if (seen.put(schema, true) != null) {
      return 1;
    }
    return switch (schema.getType()) {
      case RECORD -> {
        int newest = 1;
        for (Schema.Field field : schema.getFields()) {
          newest = Math.max(newest, Math.max(since(field), newestVersion(field.schema(), seen)));
        }
        yield newest;
      }
      case UNION -> schema.getTypes().stream().mapToInt(branch -> newestVersion(branch, seen)).max().orElse(1);
      case ARRAY -> newestVersion(schema.getElementType(), seen);
      case MAP -> newestVersion(schema.getValueType(), seen);
      default -> 1;
    };
  }

  /** The schema without the fields added after {@code version}; a named record is rebuilt once ({@code built}). */
  private static Schema at(Schema schema, int version, Map<Schema, Schema> built) {
    Schema done = built.get(schema);
    if (done != null) {
      return done;
    }
    return switch (schema.getType()) {
      case RECORD -> {
        Schema record = Schema.createRecord(schema.getName(), schema.getDoc(), schema.getNamespace(), schema.isError());
        built.put(schema, record);
        List<Schema.Field> fields = new ArrayList<>();
        for (Schema.Field field : schema.getFields()) {
          if (since(field) <= version) {
            fields.add(new Schema.Field(field, at(field.schema(), version, built)));
          }
        }
        record.setFields(fields);
        yield record;
      }
      case UNION -> Schema.createUnion(schema.getTypes().stream().map(branch -> at(branch, version, built)).toList());
      case ARRAY -> Schema.createArray(at(schema.getElementType(), version, built));
      case MAP -> Schema.createMap(at(schema.getValueType(), version, built));
      default -> schema; // enums, fixed and primitives have no fields to add
    };
  }
}
