package org.dpstream.service.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.dpstream.schemas.DenseFeatures;
import org.dpstream.schemas.Sample;
import org.dpstream.schemas.SparseFeatures;
import org.junit.jupiter.api.Test;

/** The JSON a client writes without Avro decodes to the same Sample as Avro does. */
class SampleJsonTest {

  private final SchemaSerde<Sample> serde = DpSerdes.sample();

  private Sample decodeJson(String json) {
    return serde.decodeOrThrow(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void jsonAndAvroOfTheSameSampleDecodeToEqualObjects() {
    Sample sample = ExampleRecords.sparseSample();
    Sample fromAvro = serde.decodeOrThrow(serde.encode(sample));
    Sample fromJson = decodeJson("""
        {"features": {"dimension": 1000, "indices": [3, 17], "values": [0.5, -1]},
         "label": 0, "eventTime": 1700000000000}""");

    assertEquals(fromAvro, fromJson);
    assertEquals(sample, fromJson);
  }

  @Test
  void denseFeaturesAreABareArray() {
    Sample sample = decodeJson("{\"features\": [0.1, 0.2], \"label\": 1.0}");
    assertEquals(new Sample(new DenseFeatures(List.of(0.1, 0.2)), 1.0, null, null), sample);
  }

  @Test
  void denseFeaturesMayAlsoBeTheRecordObject() {
    assertEquals(decodeJson("{\"features\": [0.1, 0.2], \"label\": 1}"),
        decodeJson("{\"features\": {\"values\": [0.1, 0.2]}, \"label\": 1}"));
  }

  @Test
  void sparseFeaturesAreAnObjectWithDimensionIndicesAndValues() {
    Sample sample = decodeJson("""
        {"features": {"dimension": 1000, "indices": [3, 17], "values": [0.5, -1]}, "label": 0}""");
    assertEquals(new Sample(new SparseFeatures(1000, List.of(3, 17), List.of(0.5, -1.0)), 0.0, null, null), sample);
  }

  @Test
  void integersAreAcceptedForDoubles() {
    Sample sample = decodeJson("{\"features\": [1, -2, 0], \"label\": 3}");
    assertEquals(List.of(1.0, -2.0, 0.0), ((DenseFeatures) sample.getFeatures()).getValues());
    assertEquals(3.0, sample.getLabel());
  }

  @Test
  void eventTimeIsOptionalAndMayBeNull() {
    assertEquals(null, decodeJson("{\"features\": [0.5], \"label\": 1, \"eventTime\": null}").getEventTime());
    assertEquals(1_700_000_000_000L,
        decodeJson("{\"features\": [0.5], \"label\": 1, \"eventTime\": 1700000000000}").getEventTime());
  }

  @Test
  void decodeReturnsTheValueForGoodInput() {
    DecodeResult<Sample> result = serde.decode("{\"features\": [0.5], \"label\": 1}".getBytes(StandardCharsets.UTF_8));
    assertEquals(new DecodeResult.Decoded<>(new Sample(new DenseFeatures(List.of(0.5)), 1.0, null, null)), result);
  }
}
