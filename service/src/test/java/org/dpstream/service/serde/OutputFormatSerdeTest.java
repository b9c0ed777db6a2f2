package org.dpstream.service.serde;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.dpstream.service.kafka.TopicNames;
import org.dpstream.service.kafka.Topics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A serde writing JSON writes natural JSON and still reads Avro; fingerprints identify the schema. */
class OutputFormatSerdeTest {

  static Stream<Arguments> outputs() {
    return Stream.of(
        Arguments.of(DpSerdes.modelRelease(), ExampleRecords.release()),
        Arguments.of(DpSerdes.rejectedRecord(), ExampleRecords.rejected()),
        Arguments.of(DpSerdes.decisionResponse(), ExampleRecords.decisionResponse()));
  }

  @ParameterizedTest
  @MethodSource("outputs")
  <T extends SpecificRecord> void jsonWritingSerdeWritesNaturalJsonAndReadsBoth(SchemaSerde<T> avro, T record) {
    SchemaSerde<T> json = avro.writing(OutputFormat.JSON);
    byte[] written = json.serialize("t", record);
    assertEquals(avro.toJson(record), new String(written, StandardCharsets.UTF_8));
    assertFalse(SchemaSerde.isSingleObjectEncoded(written));
    assertEquals(record, avro.deserialize("t", written), "an Avro-writing serde reads it");
    assertEquals(record, json.deserialize("t", avro.serialize("t", record)), "a JSON-writing serde reads Avro");
    assertArrayEquals(avro.encode(record), json.writing(OutputFormat.AVRO).serialize("t", record));
    assertSame(avro, avro.writing(OutputFormat.AVRO));
  }

  @Test
  void topicsWriteOnlyTheOutputsInTheChosenFormat() {
    Topics json = new Topics(TopicNames.defaults(), OutputFormat.JSON);
    assertEquals(OutputFormat.JSON, ((SchemaSerde<?>) json.releases().valueSerde()).written());
    assertEquals(OutputFormat.JSON, ((SchemaSerde<?>) json.rejected().valueSerde()).written());
    assertEquals(OutputFormat.JSON, ((SchemaSerde<?>) json.decisions().valueSerde()).written());
    assertEquals(OutputFormat.AVRO, ((SchemaSerde<?>) json.samples().valueSerde()).written());
    assertEquals(OutputFormat.AVRO, ((SchemaSerde<?>) Topics.defaults().releases().valueSerde()).written());
  }

  @ParameterizedTest
  @MethodSource("outputs")
  <T extends SpecificRecord> void theFingerprintInTheBytesIsTheSchemas(SchemaSerde<T> serde, T record) {
    byte[] avro = serde.encode(record);
    // The examples hold no field added after a schema's first version, so they are written in that version.
    assertEquals(OptionalLong.of(serde.fingerprints().get(0)), SchemaSerde.singleObjectFingerprint(avro));
    assertEquals(OptionalLong.empty(), SchemaSerde.singleObjectFingerprint(Arrays.copyOf(avro, 9)));
    assertEquals(OptionalLong.empty(),
        SchemaSerde.singleObjectFingerprint(serde.toJson(record).getBytes(StandardCharsets.UTF_8)));
    assertEquals(serde.schema(),
        SchemaCatalog.dpstream().forFingerprint(serde.fingerprint()).orElseThrow().schema());
  }

  @Test
  void theCatalogHoldsEverySchemaOfTheProject() throws IOException {
    Path schemas = Path.of("..", "schemas", "src", "main", "avro");
    List<String> files;
    try (Stream<Path> listing = Files.list(schemas)) {
      files = listing.map(p -> p.getFileName().toString())
          .filter(name -> name.endsWith(".avsc"))
          .map(name -> "org.dpstream.schemas." + name.substring(0, name.length() - ".avsc".length()))
          .sorted()
          .toList();
    }
    assertTrue(files.size() >= 9, files.toString());
    assertEquals(files, SchemaCatalog.dpstream().schemaNames());
  }
}
