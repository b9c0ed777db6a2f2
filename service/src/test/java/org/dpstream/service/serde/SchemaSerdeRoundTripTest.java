package org.dpstream.service.serde;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every record type survives Avro and natural JSON unchanged. */
class SchemaSerdeRoundTripTest {

  static Stream<Arguments> everyRecordType() {
    return Stream.of(
        Arguments.of(DpSerdes.sample(), ExampleRecords.denseSample()),
        Arguments.of(DpSerdes.sample(), ExampleRecords.sparseSample()),
        Arguments.of(DpSerdes.modelRelease(), ExampleRecords.release()),
        Arguments.of(DpSerdes.privacyLedger(), ExampleRecords.ledger()),
        Arguments.of(DpSerdes.rejectedRecord(), ExampleRecords.rejected()),
        Arguments.of(DpSerdes.decisionRequest(), ExampleRecords.decisionRequest()),
        Arguments.of(DpSerdes.decisionResponse(), ExampleRecords.decisionResponse()),
        Arguments.of(DpSerdes.reward(), ExampleRecords.reward()));
  }

  @ParameterizedTest
  @MethodSource("everyRecordType")
  <T extends SpecificRecord> void avroRoundTrip(SchemaSerde<T> serde, T record) {
    byte[] bytes = serde.serialize("topic", record);
    assertEquals(record, serde.deserialize("topic", bytes));
  }

  @ParameterizedTest
  @MethodSource("everyRecordType")
  <T extends SpecificRecord> void jsonRoundTrip(SchemaSerde<T> serde, T record) {
    byte[] json = serde.toJson(record).getBytes(StandardCharsets.UTF_8);
    assertEquals(record, serde.deserialize("topic", json));
  }

  @ParameterizedTest
  @MethodSource("everyRecordType")
  <T extends SpecificRecord> void avroIsSingleObjectEncodedWithTheSchemaFingerprint(SchemaSerde<T> serde, T record) {
    byte[] bytes = serde.encode(record);
    // The examples hold no field added after a schema's first version (SchemaVersions): written in that version.
    long fingerprint = serde.fingerprints().get(0);
    ByteBuffer header = ByteBuffer.wrap(bytes, 0, 10).order(ByteOrder.LITTLE_ENDIAN);

    assertEquals((byte) 0xC3, header.get());
    assertEquals((byte) 0x01, header.get());
    assertEquals(fingerprint, header.getLong());
  }

  @Test
  void nullIsATombstoneBothWays() {
    SchemaSerde<?> serde = DpSerdes.sample();
    assertNull(serde.serialize("topic", null));
    assertNull(serde.deserialize("topic", null));
  }

  @Test
  void sampleJsonIsWhatASimpleClientWrites() {
    assertEquals("{\"features\":[0.1,0.2],\"label\":1.0}", DpSerdes.sample().toJson(ExampleRecords.denseSample()));
    assertEquals("{\"features\":{\"dimension\":1000,\"indices\":[3,17],\"values\":[0.5,-1.0]},\"label\":0.0,"
        + "\"eventTime\":1700000000000}", DpSerdes.sample().toJson(ExampleRecords.sparseSample()));
  }

  @Test
  void releaseJsonWritesInfinityAsAString() {
    String json = DpSerdes.modelRelease().toJson(ExampleRecords.release());
    assertEquals("{\"modelId\":\"model-a\",\"step\":2049,\"epoch\":2,\"parameters\":[0.25,-0.5,1.0E-300],"
        + "\"algorithm\":\"dp-tofw\",\"p\":\"Infinity\",\"ledger\":{\"epsilon\":1.0,\"delta\":1.0E-6,"
        + "\"accountant\":\"zcdp\",\"horizon\":1024,\"epoch\":2,\"epsilonSpent\":0.75,\"deltaSpent\":1.0E-7}}", json);
  }

  @Test
  void bytesAreBase64InJson() {
    String json = DpSerdes.rejectedRecord().toJson(ExampleRecords.rejected());
    assertTrue(json.contains("\"originalValue\":\"wwF/\""), json);
    ByteBuffer decoded = DpSerdes.rejectedRecord().decodeOrThrow(json.getBytes(StandardCharsets.UTF_8))
        .getOriginalValue();
    assertArrayEquals(new byte[] {(byte) 0xC3, 0x01, 0x7F}, decoded.array());
  }
}
