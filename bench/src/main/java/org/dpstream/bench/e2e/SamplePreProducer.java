package org.dpstream.bench.e2e;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.dpstream.schemas.DenseFeatures;
import org.dpstream.schemas.Sample;
import org.dpstream.service.kafka.CheckedProducer;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.SchemaSerde;

/**
 * Writes the whole input before any topology starts, so the measurement is of processing alone and
 * not of a producer sharing the CPU. Samples are Avro single-object, keyed by model id; model m goes
 * to partition m mod partitions so the work spreads evenly whatever the ids hash to (a model's
 * samples still share one partition, as the service requires).
 */
final class SamplePreProducer {

  private SamplePreProducer() {}

  /**
   * Synthetic linear regression, uniform features of l2 norm at most 1; returns the bytes written once
   * every sample is acknowledged.
   *
   * @throws CheckedProducer.SendFailedException if a sample could not be written, with the reason
   */
  static long produce(String bootstrapServers, String topic, long samples, int models, int dimension,
      int partitions, long seed) {
    UniformRandomProvider random = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    SchemaSerde<Sample> serde = DpSerdes.sample();
    byte[][] keys = new byte[models][];
    for (int m = 0; m < models; m++) {
      keys[m] = BenchModels.id(m).getBytes(StandardCharsets.UTF_8);
    }
    double scale = 1 / Math.sqrt(dimension);
    long bytes = 0;
    try (CheckedProducer<byte[], byte[]> producer = CheckedProducer.create(
        Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers),
        Map.of(ProducerConfig.LINGER_MS_CONFIG, 20,
            ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024,
            ProducerConfig.COMPRESSION_TYPE_CONFIG, "none"),
        new ByteArraySerializer(), new ByteArraySerializer())) {
      List<Double> features = new ArrayList<>(dimension);
      for (long i = 0; i < samples; i++) {
        int model = (int) (i % models);
        features.clear();
        double label = 0;
        for (int j = 0; j < dimension; j++) {
          double x = scale * (2 * random.nextDouble() - 1);
          features.add(x);
          label += (j < 5 ? 0.4 : 0) * x;
        }
        label += 0.05 * (2 * random.nextDouble() - 1);
        byte[] value = serde.encode(Sample.newBuilder().setFeatures(new DenseFeatures(features)).setLabel(label).build());
        bytes += value.length;
        producer.send(new ProducerRecord<>(topic, model % partitions, keys[model], value));
      }
      producer.flush();
      if (producer.acknowledged() != samples) {
        throw new IllegalStateException("the broker acknowledged " + producer.acknowledged() + " of " + samples
            + " samples");
      }
    }
    return bytes;
  }
}
