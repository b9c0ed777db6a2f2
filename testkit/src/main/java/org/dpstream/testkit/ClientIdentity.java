package org.dpstream.testkit;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * A client principal of a secured {@link EmbeddedKafka} and the settings it connects with: bootstrap
 * servers, security protocol, trust store, and its SCRAM login or its key store.
 *
 * @param principal as ACLs name it, e.g. {@code User:dpstream}
 * @param settings Kafka client settings, strings only (they go into YAML and properties files as they are)
 */
public record ClientIdentity(String principal, Map<String, String> settings) {

  public ClientIdentity {
    Objects.requireNonNull(principal, "principal");
    settings = Map.copyOf(settings);
  }

  /** The settings as a client's config map, to which a caller adds its own. */
  public Map<String, Object> clientConfig() {
    return new HashMap<>(settings);
  }

  /** Writes the settings as a client properties file (Kafka tools' {@code --command-config}). */
  public Path writeProperties(Path file) {
    Properties properties = new Properties();
    properties.putAll(settings);
    try (OutputStream out = Files.newOutputStream(file)) {
      properties.store(out, "client settings of " + principal);
    } catch (IOException e) {
      throw new UncheckedIOException("could not write " + file, e);
    }
    return file;
  }

  /** The principal and the protocol, never the secrets. */
  @Override
  public String toString() {
    return "ClientIdentity[" + principal + " over " + settings.get("security.protocol") + "]";
  }
}
