package org.dpstream.service.it;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.dpstream.service.config.ConfigLoader;
import org.dpstream.service.config.ServiceConfig;

/** Writes a service config as the YAML file {@code dpstream run --config} reads. */
final class ConfigFiles {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private ConfigFiles() {}

  /** Writes the file and reads it back through the service's loader, so a file it would refuse fails here. */
  static Path write(ServiceConfig config, Path file) {
    try {
      YAML.writeValue(file.toFile(), config);
    } catch (IOException e) {
      throw new UncheckedIOException("could not write " + file, e);
    }
    ConfigLoader.load(file);
    return file;
  }
}
