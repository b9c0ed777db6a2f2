package org.dpstream.service.serde;

import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * The Avro data model of one generated record class, which maps every named type in that class's
 * schema to its generated class up front.
 *
 * <p>Avro 1.12 refuses to load classes by schema name unless their package is trusted through a
 * JVM-wide system property or a global validator, a guard against writer schemas naming arbitrary
 * classes. Here the names come from the schema compiled into our own jar (and single-object
 * decoding only accepts that schema's fingerprint), so this model resolves exactly those classes
 * itself instead of widening the JVM-wide trust that other code may rely on.
 */
final class GeneratedClassModel extends SpecificData {

  private final Map<String, Class<?>> classesByFullName = new HashMap<>();

  private GeneratedClassModel(ClassLoader loader) {
    super(loader);
  }

  static GeneratedClassModel of(Class<? extends SpecificRecord> type) {
    GeneratedClassModel model = new GeneratedClassModel(type.getClassLoader());
    model.register(model.getSchema(type));
    return model;
  }

  private void register(Schema schema) {
    switch (schema.getType()) {
      case RECORD -> {
        if (classesByFullName.containsKey(schema.getFullName())) {
          return; // already seen: also stops at recursive types
        }
        classesByFullName.put(schema.getFullName(), load(schema));
        schema.getFields().forEach(field -> register(field.schema()));
      }
      case ENUM, FIXED -> classesByFullName.putIfAbsent(schema.getFullName(), load(schema));
      case ARRAY -> register(schema.getElementType());
      case MAP -> register(schema.getValueType());
      case UNION -> schema.getTypes().forEach(this::register);
      default -> {
        // Primitive types have no generated class.
      }
    }
  }

  private Class<?> load(Schema schema) {
    String className = getClassName(schema);
    try {
      return Class.forName(className, false, getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("no generated class " + className + " for schema " + schema.getFullName(), e);
    }
  }

  @Override
  @SuppressWarnings("rawtypes")
  public Class getClass(Schema schema) {
    Class<?> generated = classesByFullName.get(schema.getFullName());
    return generated != null ? generated : super.getClass(schema);
  }
}
