package org.dpstream.service.config;

import org.dpstream.service.serde.OutputFormat;

/**
 * The {@code output:} section of the config file.
 *
 * @param format {@code avro} (default) or {@code json}: how releases, decisions and rejections are written
 */
public record OutputConfig(String format) {

  /** Avro single-object encoding, as before the setting existed. */
  public static final OutputConfig DEFAULT = new OutputConfig(null);

  /** The format; checked here rather than when the YAML is read, so the error names the key, not a type. */
  public OutputFormat outputFormat() {
    return format == null ? OutputFormat.AVRO : OutputFormat.parse(format, "output.format");
  }
}
