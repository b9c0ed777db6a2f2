package org.dpstream.bench.e2e;

import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.dpstream.schemas.Sample;
import org.dpstream.service.serde.DecodeResult;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.SchemaSerde;

/**
 * The baseline: what any topology over dp.samples pays at least. It decodes each sample with the
 * service's own decoder (Avro or JSON, non-finite numbers refused), re-encodes it and forwards it,
 * with no state and no learning; undecodable records are dropped (the benchmark sends none).
 */
final class PassThroughTopology {

  private PassThroughTopology() {}

  static Topology build(String inputTopic, String outputTopic) {
    Topology topology = new Topology();
    topology.addSource("samples", new ByteArrayDeserializer(), new ByteArrayDeserializer(), inputTopic);
    topology.addProcessor("recode", Recode::new, "samples");
    topology.addSink("out", outputTopic, new ByteArraySerializer(), new ByteArraySerializer(), "recode");
    return topology;
  }

  private static final class Recode implements Processor<byte[], byte[], byte[], byte[]> {
    private final SchemaSerde<Sample> samples = DpSerdes.sample();
    private ProcessorContext<byte[], byte[]> context;

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
      this.context = context;
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
      if (samples.decode(record.value()) instanceof DecodeResult.Decoded<Sample> decoded) {
        context.forward(record.withValue(samples.encode(decoded.value())));
      }
    }
  }
}
