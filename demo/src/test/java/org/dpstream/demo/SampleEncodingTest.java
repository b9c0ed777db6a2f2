package org.dpstream.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;
import org.dpstream.schemas.DenseFeatures;
import org.dpstream.schemas.Sample;
import org.dpstream.schemas.SparseFeatures;
import org.dpstream.service.serde.DecodeResult;
import org.dpstream.service.serde.DpSerdes;
import org.junit.jupiter.api.Test;

class SampleEncodingTest {

  private final LabelledPoint point = new LabelledPoint(new double[] {0.25, 0, -0.75}, 0.5);

  @Test
  void everyEncodingDecodesToTheSamePoint() {
    for (SampleEncoding encoding : SampleEncoding.values()) {
      Sample sample = decoded(encoding.encode(point));
      assertEquals(0.5, sample.getLabel(), encoding.name());
      if (sample.getFeatures() instanceof SparseFeatures sparse) {
        assertEquals(SampleEncoding.JSON_SPARSE, encoding);
        assertEquals(3, sparse.getDimension());
        assertEquals(List.of(0, 2), sparse.getIndices());
        assertEquals(List.of(0.25, -0.75), sparse.getValues());
      } else {
        assertEquals(List.of(0.25, 0.0, -0.75), ((DenseFeatures) sample.getFeatures()).getValues(), encoding.name());
      }
    }
  }

  @Test
  void eightInTenSamplesAreAvroAndTheRestJsonOfBothForms() {
    long avro = LongStream.range(0, 100).filter(i -> SampleEncoding.forIndex(i) == SampleEncoding.AVRO).count();
    assertEquals(80, avro);
    Set<SampleEncoding> used = EnumSet.noneOf(SampleEncoding.class);
    LongStream.range(0, 10).forEach(i -> used.add(SampleEncoding.forIndex(i)));
    assertEquals(EnumSet.allOf(SampleEncoding.class), used);
  }

  private static Sample decoded(byte[] bytes) {
    DecodeResult<Sample> result = DpSerdes.sample().decode(bytes);
    if (result instanceof DecodeResult.Decoded<Sample> decoded) {
      return decoded.value();
    }
    throw new AssertionError("not decoded: " + result);
  }
}
