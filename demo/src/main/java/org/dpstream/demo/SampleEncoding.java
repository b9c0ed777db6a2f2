package org.dpstream.demo;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.dpstream.schemas.DenseFeatures;
import org.dpstream.schemas.Sample;
import org.dpstream.schemas.SparseFeatures;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.SchemaSerde;

/**
 * How the demo writes a sample to dp.samples. Most go as Avro single-object encoding; every tenth as
 * dense JSON and every tenth as sparse JSON, to show that simple clients can send JSON of the same
 * schema on the same topic.
 */
enum SampleEncoding {
  AVRO,
  JSON_DENSE,
  JSON_SPARSE;

  private static final SchemaSerde<Sample> SAMPLES = DpSerdes.sample();

  /** The encoding of the {@code index}-th sample of a model's stream. */
  static SampleEncoding forIndex(long index) {
    return switch ((int) (index % 10)) {
      case 3 -> JSON_DENSE;
      case 7 -> JSON_SPARSE;
      default -> AVRO;
    };
  }

  byte[] encode(LabelledPoint point) {
    return encode(point, null);
  }

  /** The sample with its person's id in {@code userId} (null: none, as an event-level model needs). */
  byte[] encode(LabelledPoint point, String userId) {
    return switch (this) {
      case AVRO -> SAMPLES.encode(dense(point, userId));
      case JSON_DENSE -> json(dense(point, userId));
      case JSON_SPARSE -> json(sparse(point, userId));
    };
  }

  static Sample dense(LabelledPoint point) {
    return dense(point, null);
  }

  static Sample dense(LabelledPoint point, String userId) {
    return new Sample(new DenseFeatures(boxed(point.features())), point.label(), System.currentTimeMillis(), userId);
  }

  static Sample sparse(LabelledPoint point) {
    return sparse(point, null);
  }

  /** The nonzero coordinates only (all of them, for Gaussian features, but the form is what matters). */
  static Sample sparse(LabelledPoint point, String userId) {
    double[] x = point.features();
    List<Integer> indices = new ArrayList<>();
    List<Double> values = new ArrayList<>();
    for (int i = 0; i < x.length; i++) {
      if (x[i] != 0) {
        indices.add(i);
        values.add(x[i]);
      }
    }
    return new Sample(new SparseFeatures(x.length, indices, values), point.label(), System.currentTimeMillis(), userId);
  }

  private static byte[] json(Sample sample) {
    return SAMPLES.toJson(sample).getBytes(StandardCharsets.UTF_8);
  }

  private static List<Double> boxed(double[] values) {
    List<Double> list = new ArrayList<>(values.length);
    for (double v : values) {
      list.add(v);
    }
    return list;
  }
}
