package org.dpstream.service.it;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * The kinds of bad input a producer the service does not control can send, each with the reason the
 * service must give in dp.rejected. Each is made from a valid sample, so only the one defect differs.
 */
enum MalformedRecords {
  GARBAGE_BYTES("UNDECODABLE") {
    @Override
    KafkaHarness.RawRecord corrupt(SampleRow row, UniformRandomProvider random) {
      byte[] garbage = new byte[1 + random.nextInt(64)];
      random.nextBytes(garbage);
      garbage[0] = 0; // neither '{' (JSON) nor the Avro single-object marker
      return new KafkaHarness.RawRecord(row.key(), garbage);
    }
  },
  TRUNCATED_AVRO("UNDECODABLE") {
    @Override
    KafkaHarness.RawRecord corrupt(SampleRow row, UniformRandomProvider random) {
      byte[] avro = row.avro();
      return new KafkaHarness.RawRecord(row.key(), Arrays.copyOf(avro, 10 + random.nextInt(avro.length - 12)));
    }
  },
  JSON_WITHOUT_LABEL("MISSING_FIELD") {
    @Override
    KafkaHarness.RawRecord corrupt(SampleRow row, UniformRandomProvider random) {
      return json(row, "{\"features\": " + array(row.features()) + "}");
    }
  },
  JSON_NAN_FEATURE("NON_FINITE_NUMBER") {
    @Override
    KafkaHarness.RawRecord corrupt(SampleRow row, UniformRandomProvider random) {
      double[] features = row.features().clone();
      features[random.nextInt(features.length)] = Double.NaN;
      return json(row, "{\"features\": " + array(features) + ", \"label\": " + row.label() + "}");
    }
  },
  AVRO_INFINITE_LABEL("NON_FINITE_NUMBER") {
    @Override
    KafkaHarness.RawRecord corrupt(SampleRow row, UniformRandomProvider random) {
      return new KafkaHarness.RawRecord(row.key(),
          new SampleRow(row.modelId(), row.features(), Double.POSITIVE_INFINITY).avro());
    }
  },
  WRONG_DIMENSION("WRONG_DIMENSION") {
    @Override
    KafkaHarness.RawRecord corrupt(SampleRow row, UniformRandomProvider random) {
      double[] shorter = Arrays.copyOf(row.features(), row.features().length - 1);
      return new KafkaHarness.RawRecord(row.key(), new SampleRow(row.modelId(), shorter, row.label()).avro());
    }
  },
  UNKNOWN_MODEL("UNKNOWN_MODEL") {
    @Override
    KafkaHarness.RawRecord corrupt(SampleRow row, UniformRandomProvider random) {
      return new KafkaHarness.RawRecord("no-such-model".getBytes(StandardCharsets.UTF_8), row.avro());
    }
  },
  NULL_KEY("MISSING_KEY") {
    @Override
    KafkaHarness.RawRecord corrupt(SampleRow row, UniformRandomProvider random) {
      return new KafkaHarness.RawRecord(null, row.avro());
    }
  };

  private final String reason;

  MalformedRecords(String reason) {
    this.reason = reason;
  }

  /** The reason code the service must put in the rejected record. */
  String reason() {
    return reason;
  }

  abstract KafkaHarness.RawRecord corrupt(SampleRow row, UniformRandomProvider random);

  private static KafkaHarness.RawRecord json(SampleRow row, String text) {
    return new KafkaHarness.RawRecord(row.key(), text.getBytes(StandardCharsets.UTF_8));
  }

  /** JSON has no NaN literal; the service's reader accepts the bare token, as a lenient producer writes it. */
  private static String array(double[] values) {
    return Arrays.stream(values).mapToObj(v -> String.format(Locale.ROOT, "%s", v))
        .collect(Collectors.joining(", ", "[", "]"));
  }
}
