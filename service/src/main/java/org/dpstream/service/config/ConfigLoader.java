package org.dpstream.service.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads the service's YAML config file (see {@code config/dpstream.yaml} for an annotated example).
 * Unknown keys are errors, so a misspelt setting fails at start-up instead of silently taking its
 * default; every model is checked (ranges, geometry, accounting) before anything starts.
 */
public final class ConfigLoader {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
      .setPropertyNamingStrategy(PropertyNamingStrategies.LOWER_CAMEL_CASE)
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

  private ConfigLoader() {}

  public static ServiceConfig load(Path file) {
    return validated(read(file, ServiceConfig.class));
  }

  /** Parses and validates YAML text; {@code source} names it in messages. */
  public static ServiceConfig parse(String yaml, String source) {
    return validated(parse(yaml, source, ServiceConfig.class));
  }

  private static ServiceConfig validated(ServiceConfig config) {
    config.registry(); // validates every model now rather than at the first sample
    config.banditRegistry(); // and every bandit
    config.output().outputFormat(); // and output.format
    config.modelsWithSeries(); // and the models metrics.models names
    return config;
  }

  /**
   * Reads a YAML file into {@code type} with the loader's rules (unknown keys and nulls for primitives are
   * errors); the caller validates the values.
   */
  public static <T> T read(Path file, Class<T> type) {
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("config file " + file + " does not exist");
    }
    try {
      return parse(Files.readString(file), file.toString(), type);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read config file " + file + ": " + e.getMessage(), e);
    }
  }

  /** {@link #read} on text; {@code source} names it in messages. */
  public static <T> T parse(String yaml, String source, Class<T> type) {
    T config;
    try {
      config = YAML.readValue(yaml, type);
    } catch (JsonMappingException e) {
      throw new IllegalArgumentException(source + ": " + ConfigErrors.describe(e), e);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(source + ": not valid YAML: " + ConfigErrors.describe(e), e);
    }
    if (config == null) {
      throw new IllegalArgumentException(source + " is empty");
    }
    return config;
  }
}
