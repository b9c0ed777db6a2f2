package org.dpstream.service.routing;

import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * Routes input topics by id through one internal repartition topic, {@code <applicationId>-<name>-repartition},
 * with {@code partitions} partitions and {@link RoutingPartitioner}: whatever partition a producer wrote
 * a record to, and however many partitions an input topic has or gains, the record reaches the one task
 * that owns its id. Kafka Streams creates the routing topic, purges what it has consumed, and refuses to
 * start if an existing one has another partition count.
 */
public final class Routing {

  /** One input topic and the name its records carry after routing ({@link RoutedInput#input}). */
  public record Input(String topic, String name) {}

  private Routing() {}

  /**
   * The routed stream of {@code inputs}: key = the id (null if the record had no key), value = the
   * producer's bytes, headers stamped by {@link RoutedInput}. Node names derive from {@code name}
   * and each input's name, so they are stable across releases.
   */
  public static KStream<String, byte[]> route(StreamsBuilder builder, String name, int partitions, List<Input> inputs) {
    KStream<String, byte[]> merged = null;
    for (Input input : inputs) {
      KStream<String, byte[]> keyed = builder
          .stream(input.topic(), Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName(input.name() + "-source"))
          .process(() -> new Router(input.name()), Named.as(input.name() + "-router"));
      merged = merged == null ? keyed : merged.merge(keyed, Named.as(name + "-merge-" + input.name()));
    }
    if (merged == null) {
      throw new IllegalArgumentException("nothing to route");
    }
    return merged.repartition(Repartitioned.<String, byte[]>with(Serdes.String(), Serdes.ByteArray())
        .withName(name)
        .withNumberOfPartitions(partitions)
        .withStreamPartitioner(new RoutingPartitioner()));
  }

  /** The topic Kafka Streams names the routing topic {@code name} of an application. */
  public static String topicName(String applicationId, String name) {
    return applicationId + "-" + name + "-repartition";
  }
}
