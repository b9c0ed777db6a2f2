package org.dpstream.service.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Turns the YAML mapper's exceptions into one line an operator can act on: the key path in the file
 * ({@code models[0].epsilon}) and what is wrong, never a Java class name or a parser's multi-line excerpt.
 */
final class ConfigErrors {

  private ConfigErrors() {}

  static String describe(JsonProcessingException e) {
    if (e instanceof UnrecognizedPropertyException unknown) {
      return "unknown key \"" + unknown.getPropertyName() + "\"" + at(parentPath(unknown)) + " (known keys: "
          + known(unknown.getKnownPropertyIds()) + ")";
    }
    if (e instanceof InvalidFormatException invalid) {
      return "\"" + invalid.getValue() + "\" is not a valid value" + at(path(invalid.getPath()))
          + " (expected " + expected(invalid.getTargetType()) + ")";
    }
    if (e instanceof ValueInstantiationException instantiation && instantiation.getCause() != null) {
      return invalidSection(instantiation.getCause(), path(instantiation.getPath()));
    }
    if (e instanceof MismatchedInputException mismatched && mismatched.getTargetType() != null
        && mismatched.getTargetType().isPrimitive() && String.valueOf(e.getOriginalMessage()).contains("`null`")) {
      return "missing key " + path(mismatched.getPath()); // a required number left out (or left empty)
    }
    if (e instanceof MismatchedInputException mismatched && mismatched.getTargetType() != null) {
      return "wrong kind of value" + at(path(mismatched.getPath())) + " (expected "
          + expected(mismatched.getTargetType()) + ")";
    }
    if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
      return oneLine(e.getOriginalMessage()) + at(path(mapping.getPath()));
    }
    return oneLine(e.getOriginalMessage()) + location(e.getLocation());
  }

  /** A section's own check refused it, e.g. a missing required key or a value out of range. */
  private static String invalidSection(Throwable cause, String path) {
    if (cause instanceof NullPointerException && cause.getMessage() != null) {
      // Records check required keys with Objects.requireNonNull(value, "key").
      return "missing key " + cause.getMessage() + at(path);
    }
    String message = cause.getMessage() == null ? "invalid value" : oneLine(cause.getMessage());
    return path.isEmpty() ? message : path + ": " + message;
  }

  private static String at(String path) {
    return path.isEmpty() ? "" : " at " + path;
  }

  private static String parentPath(JsonMappingException e) {
    List<JsonMappingException.Reference> references = e.getPath();
    return path(references.subList(0, Math.max(0, references.size() - 1)));
  }

  /** {@code models[0].epsilon}: field names joined by dots, list indices in brackets. */
  private static String path(List<JsonMappingException.Reference> references) {
    StringBuilder path = new StringBuilder();
    for (JsonMappingException.Reference reference : references) {
      if (reference.getFieldName() != null) {
        if (!path.isEmpty()) {
          path.append('.');
        }
        path.append(reference.getFieldName());
      } else if (reference.getIndex() >= 0) {
        path.append('[').append(reference.getIndex()).append(']');
      }
    }
    return path.toString();
  }

  private static String known(Collection<Object> ids) {
    return ids == null ? "" : new TreeSet<>(ids.stream().map(String::valueOf).toList()).stream()
        .collect(Collectors.joining(", "));
  }

  private static String expected(Class<?> type) {
    if (type == null) {
      return "another value";
    }
    if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
      return "an integer";
    }
    if (type == double.class || type == Double.class || type == float.class || type == Float.class) {
      return "a number";
    }
    if (type == boolean.class || type == Boolean.class) {
      return "true or false";
    }
    if (type == String.class) {
      return "a single value";
    }
    if (Collection.class.isAssignableFrom(type) || type.isArray()) {
      return "a list";
    }
    if (Map.class.isAssignableFrom(type) || type.isRecord()) {
      return "a section of keys";
    }
    return "another value";
  }

  private static String location(JsonLocation location) {
    return location == null || location.getLineNr() < 1 ? ""
        : " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
  }

  private static String oneLine(String text) {
    return text == null ? "" : text.lines().map(String::strip).filter(l -> !l.isEmpty())
        .collect(Collectors.joining(" "));
  }
}
