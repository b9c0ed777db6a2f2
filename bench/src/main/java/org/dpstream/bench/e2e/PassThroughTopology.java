package org.dpstream.bench.e2e;

import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.dpstream.schemas.Sample;
import org.dpstream.service.routing.Routing;
import org.dpstream.service.serde.DecodeResult;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.SchemaSerde;

/**
 * The baselines: what any topology over dp.samples pays at least. Each decodes every sample with the
 * service's own decoder (Avro or JSON, non-finite numbers refused), re-encodes it and forwards it,
 * with no state and no learning; undecodable records are dropped (the benchmark sends none).
 */
final class PassThroughTopology {

  private PassThroughTopology() {}

  /** Straight through: each sample is read once and written once, on its input partition. */
  static Topology build(String inputTopic, String outputTopic) {
    Topology topology = new Topology();
    topology.addSource("samples", new ByteArrayDeserializer(), new ByteArrayDeserializer(), inputTopic);
    topology.addProcessor("recode", () -> new Recode<byte[]>(false), "samples");
    topology.addSink("out", outputTopic, new ByteArraySerializer(), new ByteArraySerializer(), "recode");
    return topology;
  }

  /**
   * Through the service's own routing first ({@link Routing#route}: the router's stamps, the routing topic of
   * {@code routingPartitions} partitions and its partitioner), then recoded without the routing's headers, as a
   * release carries none: the least that any topology keeping one task per model pays, and so the ceiling of
   * dpstream's ratio to the straight pass-through.
   */
  static Topology buildRouted(String inputTopic, String outputTopic, int routingPartitions) {
    StreamsBuilder builder = new StreamsBuilder();
    Routing.route(builder, "bench-routing", routingPartitions, List.of(new Routing.Input(inputTopic, "samples")))
        .process(() -> new Recode<String>(true), Named.as("recode"))
        .to(outputTopic, Produced.with(Serdes.String(), Serdes.ByteArray()));
    return builder.build();
  }

  private static final class Recode<K> implements Processor<K, byte[], K, byte[]> {
    private final SchemaSerde<Sample> samples = DpSerdes.sample();
    private final boolean dropHeaders;
    private ProcessorContext<K, byte[]> context;

    Recode(boolean dropHeaders) {
      this.dropHeaders = dropHeaders;
    }

    @Override
    public void init(ProcessorContext<K, byte[]> context) {
      this.context = context;
    }

    @Override
    public void process(Record<K, byte[]> record) {
      if (samples.decode(record.value()) instanceof DecodeResult.Decoded<Sample> decoded) {
        Record<K, byte[]> recoded = record.withValue(samples.encode(decoded.value()));
        context.forward(dropHeaders ? recoded.withHeaders(new RecordHeaders()) : recoded);
      }
    }
  }
}
