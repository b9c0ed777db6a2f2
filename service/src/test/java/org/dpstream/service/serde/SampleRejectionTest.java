package org.dpstream.service.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.dpstream.schemas.DenseFeatures;
import org.dpstream.schemas.Sample;
import org.dpstream.schemas.SparseFeatures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Malformed samples are rejected with the reason dp.rejected will carry, never decoded to null. */
class SampleRejectionTest {

  private static final SchemaSerde<Sample> SERDE = DpSerdes.sample();

  static Stream<Arguments> malformedSamples() {
    byte[] avro = SERDE.encode(ExampleRecords.sparseSample());
    byte[] wrongFingerprint = avro.clone();
    wrongFingerprint[5] ^= 0x5A;
    return Stream.of(
        reject("truncated Avro", Arrays.copyOf(avro, avro.length - 3), RejectReason.UNDECODABLE),
        reject("Avro with bytes after the record", Arrays.copyOf(avro, avro.length + 4), RejectReason.UNDECODABLE),
        reject("Avro header cut inside the fingerprint", Arrays.copyOf(avro, 6), RejectReason.UNDECODABLE),
        reject("Avro with a wrong fingerprint", wrongFingerprint, RejectReason.UNKNOWN_SCHEMA_FINGERPRINT),
        reject("a Reward sent to the samples topic", DpSerdes.reward().encode(ExampleRecords.reward()),
            RejectReason.UNKNOWN_SCHEMA_FINGERPRINT),
        reject("garbage bytes", new byte[] {0x00, 0x13, (byte) 0xFF, 0x42, 0x07}, RejectReason.UNDECODABLE),
        reject("empty bytes", new byte[0], RejectReason.UNDECODABLE),
        reject("truncated JSON", "{\"features\": [0.1, 0.2], \"lab", RejectReason.UNDECODABLE),
        reject("two JSON documents", "{\"features\": [1], \"label\": 1} {}", RejectReason.UNDECODABLE),
        reject("a duplicate key", "{\"features\": [1], \"label\": 1, \"label\": 0}", RejectReason.UNDECODABLE),
        reject("a JSON array instead of an object", "[0.1, 0.2]", RejectReason.WRONG_TYPE),
        reject("JSON without label", "{\"features\": [0.1, 0.2]}", RejectReason.MISSING_FIELD),
        reject("sparse features without indices", "{\"features\": {\"dimension\": 5, \"values\": [1]}, \"label\": 1}",
            RejectReason.MISSING_FIELD),
        reject("a misspelt optional field", "{\"features\": [1], \"label\": 1, \"eventtime\": 5}",
            RejectReason.UNKNOWN_FIELD),
        reject("label as a string", "{\"features\": [0.1], \"label\": \"1.0\"}", RejectReason.WRONG_TYPE),
        reject("label null", "{\"features\": [0.1], \"label\": null}", RejectReason.WRONG_TYPE),
        reject("a string among the features", "{\"features\": [0.1, \"x\"], \"label\": 1}", RejectReason.WRONG_TYPE),
        reject("features a number", "{\"features\": 3, \"label\": 1}", RejectReason.WRONG_TYPE),
        reject("features a string", "{\"features\": \"0.1,0.2\", \"label\": 1}", RejectReason.WRONG_TYPE),
        reject("a fractional sparse index", "{\"features\": {\"dimension\": 5, \"indices\": [1.5], \"values\": [1]},"
            + " \"label\": 1}", RejectReason.WRONG_TYPE),
        reject("a dimension beyond the int range", "{\"features\": {\"dimension\": 3000000000, \"indices\": [],"
            + " \"values\": []}, \"label\": 1}", RejectReason.WRONG_TYPE),
        reject("eventTime as a string", "{\"features\": [1], \"label\": 1, \"eventTime\": \"2024-01-01\"}",
            RejectReason.WRONG_TYPE),
        reject("a NaN label token", "{\"features\": [0.1], \"label\": NaN}", RejectReason.NON_FINITE_NUMBER),
        reject("an Infinity feature token", "{\"features\": [0.1, -Infinity], \"label\": 1}",
            RejectReason.NON_FINITE_NUMBER),
        reject("a literal that overflows a double", "{\"features\": [1e400], \"label\": 1}",
            RejectReason.NON_FINITE_NUMBER),
        reject("NaN in Avro", SERDE.encode(new Sample(new DenseFeatures(List.of(0.1)), Double.NaN, null, null)),
            RejectReason.NON_FINITE_NUMBER));
  }

  private static Arguments reject(String description, String json, RejectReason reason) {
    return reject(description, json.getBytes(StandardCharsets.UTF_8), reason);
  }

  private static Arguments reject(String description, byte[] bytes, RejectReason reason) {
    return Arguments.of(description, bytes, reason);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformedSamples")
  void deserializeThrowsWithTheReason(String description, byte[] bytes, RejectReason reason) {
    DecodeException e = assertThrows(DecodeException.class, () -> SERDE.deserialize("dp.samples", bytes));
    assertEquals(reason, e.reason(), e.getMessage());
    assertFalse(e.getMessage().isBlank());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformedSamples")
  void decodeReturnsTheSameRejection(String description, byte[] bytes, RejectReason reason) {
    DecodeResult.Rejected<?> rejected = assertInstanceOf(DecodeResult.Rejected.class, SERDE.decode(bytes));
    assertEquals(reason, rejected.reason(), rejected.message());
  }

  @Test
  void messagesNameTheFieldButNotTheValue() {
    byte[] json = "{\"features\": [0.1], \"label\": \"patient-4711\"}".getBytes(StandardCharsets.UTF_8);
    DecodeException e = assertThrows(DecodeException.class, () -> SERDE.decodeOrThrow(json));
    assertEquals("label: expected a number, got a string", e.getMessage());
    assertFalse(e.getMessage().contains("4711"));
  }

  @Test
  void messagesGiveThePathIntoNestedArrays() {
    byte[] json = "{\"features\": {\"dimension\": 5, \"indices\": [1], \"values\": [1, NaN]}, \"label\": 1}"
        .getBytes(StandardCharsets.UTF_8);
    DecodeException e = assertThrows(DecodeException.class, () -> SERDE.decodeOrThrow(json));
    assertTrue(e.getMessage().startsWith("features.values[1]: NaN"), e.getMessage());
  }

  /** Avro carries any double: the walk after decoding names the first non-finite one by its path. */
  @Test
  void anAvroSamplesNonFiniteNumberIsNamedByItsPath() {
    assertEquals("features.values[2]: NaN is not accepted", avroRejection(
        new DenseFeatures(List.of(0.1, 0.2, Double.NaN, Double.POSITIVE_INFINITY)), 1));
    assertEquals("features.values[1]: -Infinity is not accepted", avroRejection(
        new SparseFeatures(9, List.of(3, 5), List.of(0.5, Double.NEGATIVE_INFINITY)), 1));
    assertEquals("label: Infinity is not accepted", avroRejection(new DenseFeatures(List.of(0.1)),
        Double.POSITIVE_INFINITY));
    assertEquals("features.values[0]: NaN is not accepted", avroRejection(new DenseFeatures(List.of(Double.NaN)),
        Double.NaN), "the first in the record's order");
    assertInstanceOf(DecodeResult.Decoded.class, SERDE.decode(SERDE.encode(Sample.newBuilder()
        .setFeatures(new DenseFeatures(List.of(-Double.MAX_VALUE, Double.MIN_VALUE))).setLabel(-0.0).build())));
  }

  private static String avroRejection(Object features, double label) {
    byte[] avro = SERDE.encode(Sample.newBuilder().setFeatures(features).setLabel(label).build());
    DecodeException e = assertThrows(DecodeException.class, () -> SERDE.decodeOrThrow(avro));
    assertEquals(RejectReason.NON_FINITE_NUMBER, e.reason());
    return e.getMessage();
  }

  @Test
  void releasesKeepInfinityInAvroAndJson() {
    SchemaSerde<org.dpstream.schemas.ModelRelease> releases = DpSerdes.modelRelease();
    var release = ExampleRecords.release();
    assertEquals(Double.POSITIVE_INFINITY, releases.decodeOrThrow(releases.encode(release)).getP());
    assertEquals(Double.POSITIVE_INFINITY,
        releases.decodeOrThrow(releases.toJson(release).getBytes(StandardCharsets.UTF_8)).getP());
  }
}
