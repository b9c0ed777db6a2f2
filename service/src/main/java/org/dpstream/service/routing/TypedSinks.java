package org.dpstream.service.routing;

import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.BranchedKStream;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.dpstream.service.kafka.Topic;

/**
 * Sends a processor's outputs (releases, decisions, rejections, forwarded as one stream of objects) each
 * to its topic with its serde, by the value's type.
 */
public final class TypedSinks {

  /** Values of {@code type} go to {@code topic}; the sink node is called {@code name}. */
  public record Sink<V>(String name, Class<V> type, Topic<String, V> topic) {

    void attach(KStream<String, Object> values) {
      values.mapValues(type::cast, Named.as(name + "-cast"))
          .to(topic.name(), Produced.with(Serdes.String(), topic.valueSerde()).withName(name));
    }
  }

  private TypedSinks() {}

  /**
   * Attaches the sinks to {@code outputs}. A value of no sink's type is a programming error and throws, so
   * that it reaches the processing-error path instead of vanishing.
   */
  public static void attach(KStream<String, Object> outputs, String name, List<Sink<?>> sinks) {
    BranchedKStream<String, Object> branches = outputs.split(Named.as(name + "-"));
    for (Sink<?> sink : sinks) {
      branches = branches.branch((key, value) -> sink.type().isInstance(value),
          Branched.withConsumer(sink::attach, sink.name()));
    }
    branches.defaultBranch(Branched.withConsumer(unexpected -> unexpected.foreach((key, value) -> {
      throw new IllegalStateException("no sink for " + (value == null ? "null" : value.getClass().getSimpleName()));
    }, Named.as(name + "-no-sink")), "unexpected"));
  }
}
