package org.dpstream.demo;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * A handful of bad inputs the demo mixes into its stream, one per kind of rejection, so that
 * dp.rejected has something to show: each arrives there with its reason and original bytes, and the
 * models carry on.
 */
final class MalformedSamples {

  /** A record to send: key (the model id it claims) and raw value. */
  record KeyedBytes(String key, byte[] value) {}

  /** Key of the record that names no configured model. */
  static final String UNKNOWN_MODEL_KEY = "no-such-model";

  private MalformedSamples() {}

  /** Bad records aimed at {@code models}, whose first entry is used where any model will do. */
  static List<KeyedBytes> aimedAt(List<DemoModel> models) {
    DemoModel first = models.get(0);
    DemoModel last = models.get(models.size() - 1);
    LabelledPoint wrongDimension = new LabelledPoint(new double[first.dimension() + 1], 0.5);
    LabelledPoint valid = new LabelledPoint(new double[first.dimension()], 0.5);
    byte[] avro = SampleEncoding.AVRO.encode(valid);
    return List.of(
        // UNDECODABLE: neither Avro nor JSON.
        new KeyedBytes(first.id(), "x=0.1,y=0.2".getBytes(StandardCharsets.UTF_8)),
        // MISSING_FIELD: JSON without the label.
        new KeyedBytes(last.id(), "{\"features\": {\"values\": [0.1]}}".getBytes(StandardCharsets.UTF_8)),
        // WRONG_DIMENSION: a well-formed sample of the wrong length.
        new KeyedBytes(first.id(), SampleEncoding.AVRO.encode(wrongDimension)),
        // UNKNOWN_MODEL: a valid sample under a key no model has.
        new KeyedBytes(UNKNOWN_MODEL_KEY, avro),
        // UNDECODABLE: Avro cut short in transit.
        new KeyedBytes(last.id(), Arrays.copyOf(avro, avro.length / 2)));
  }
}
