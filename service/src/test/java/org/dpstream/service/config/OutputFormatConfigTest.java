package org.dpstream.service.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dpstream.service.serde.OutputFormat;
import org.junit.jupiter.api.Test;

class OutputFormatConfigTest {

  private static ServiceConfig parse(String yaml) {
    return ConfigLoader.parse("applicationId: a\n" + yaml, "cfg.yaml");
  }

  @Test
  void theShippedConfigDocumentsTheSettingAndKeepsAvro() throws IOException {
    Path file = Path.of("..", "config", "dpstream.yaml");
    assertTrue(Files.readString(file).contains("output:\n  format: avro "), "config/dpstream.yaml documents it");
    assertEquals(OutputFormat.AVRO, ConfigLoader.load(file).output().outputFormat());
  }

  @Test
  void avroUnlessJsonIsChosen() {
    assertEquals(OutputFormat.AVRO, parse("").output().outputFormat());
    assertEquals(OutputFormat.AVRO, parse("output:\n  format: avro\n").output().outputFormat());
    assertEquals(OutputFormat.JSON, parse("output:\n  format: json\n").output().outputFormat());
    assertEquals(OutputFormat.JSON, parse("output:\n  format: JSON\n").output().outputFormat());
  }

  @Test
  void anUnknownFormatIsOneLineNamingTheKey() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> parse("output:\n  format: protobuf\n"));
    assertEquals("output.format must be avro or json, got 'protobuf'", e.getMessage());
    IllegalArgumentException misspelt = assertThrows(IllegalArgumentException.class,
        () -> parse("output:\n  fromat: json\n"));
    assertTrue(misspelt.getMessage().contains("fromat"), misspelt.getMessage());
    assertFalse(e.getMessage().contains("\n"));
  }
}
