package org.dpstream.service.it;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.dpstream.schemas.DenseFeatures;
import org.dpstream.schemas.Sample;
import org.dpstream.service.serde.DpSerdes;

/**
 * One valid sample of a model, as the test produces it and as the reference estimator steps on it; {@code userId} is
 * its person (null: none).
 */
record SampleRow(String modelId, double[] features, double label, String userId) {

  SampleRow(String modelId, double[] features, double label) {
    this(modelId, features, label, null);
  }

  byte[] key() {
    return modelId.getBytes(StandardCharsets.UTF_8);
  }

  /** Avro single-object encoding, the binary form the service accepts. */
  byte[] avro() {
    Sample sample = Sample.newBuilder()
        .setFeatures(new DenseFeatures(Arrays.stream(features).boxed().toList()))
        .setLabel(label)
        .setUserId(userId)
        .build();
    return DpSerdes.sample().encode(sample);
  }
}
