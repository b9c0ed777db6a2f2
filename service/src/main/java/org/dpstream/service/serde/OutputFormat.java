package org.dpstream.service.serde;

import java.util.Locale;

/**
 * How the service writes the records it publishes (releases, decisions, rejections); config key
 * {@code output.format}. Readers need not know: {@link SchemaSerde} reads both.
 */
public enum OutputFormat {
  /** Avro single-object encoding: compact, carries the schema fingerprint; binary to kcat. */
  AVRO,
  /** The natural JSON of the schema (see {@link NaturalJson}): readable by any Kafka tool. */
  JSON;

  /** Reads {@code avro} or {@code json} (any case); {@code key} names the setting in the error. */
  public static OutputFormat parse(String text, String key) {
    return switch (text == null ? "" : text.trim().toLowerCase(Locale.ROOT)) {
      case "avro" -> AVRO;
      case "json" -> JSON;
      default -> throw new IllegalArgumentException(key + " must be avro or json, got '" + text + "'");
    };
  }
}
