package org.dpstream.service.kafka;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/** A client properties file as the Kafka tools take it ({@code --command-config FILE}): SASL/SSL settings and the like. */
public final class ClientPropertiesFile {

  private ClientPropertiesFile() {}

  /**
   * The file's settings.
   *
   * @throws IOException if it is not a readable file
   * @throws IllegalArgumentException if it is not a properties file (a malformed escape)
   */
  public static Map<String, Object> read(Path file) throws IOException {
    Properties properties = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      properties.load(in);
    }
    Map<String, Object> settings = new HashMap<>();
    properties.stringPropertyNames().forEach(name -> settings.put(name, properties.getProperty(name)));
    return settings;
  }
}
