package org.dpstream.service.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.dpstream.service.config.ApiTlsConfig;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.ClipConfig;
import org.dpstream.service.config.DeciderConfig;
import org.dpstream.service.config.MetricsConfig;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.OutputConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.config.TopicCreation;
import org.dpstream.service.kafka.TopicNames;
import org.dpstream.service.testing.RepositoryFiles;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md has a row for every key the config file takes: the components of the config records, which
 * Jackson binds by name (unknown keys are errors), each under the path it has in the file. A key added to the code
 * without a row, or a row left for a removed key, fails here.
 */
class ConfigurationDocTest {

  /** Each config record and the path its keys have in the file; sections that are records of their own are left out. */
  private static final Map<Class<? extends Record>, String> SECTIONS = Map.of(
      ServiceConfig.class, "",
      TopicNames.class, "topics.",
      OutputConfig.class, "output.",
      TopicCreation.class, "createTopics.",
      MetricsConfig.class, "metrics.",
      ModelConfig.class, "models[].",
      ClipConfig.class, "models[].clip.",
      BanditConfig.class, "bandits[].",
      DeciderConfig.class, "decider.",
      ApiTlsConfig.class, "decider.tls.");

  @Test
  void everyKeyOfTheConfigFileHasARow() throws IOException {
    String document = Files.readString(RepositoryFiles.root().resolve("docs/configuration.md"));
    List<String> missing = new ArrayList<>();
    for (Map.Entry<Class<? extends Record>, String> section : SECTIONS.entrySet()) {
      for (RecordComponent component : section.getKey().getRecordComponents()) {
        boolean isSection = component.getType().isRecord()
            || section.getKey() == ServiceConfig.class && component.getType() == List.class; // models, bandits
        String key = section.getValue() + component.getName();
        if (!isSection && !document.contains("| `" + key + "` |")) {
          missing.add(key);
        }
      }
    }
    assertTrue(missing.isEmpty(), "docs/configuration.md has no row for " + missing);
  }
}
