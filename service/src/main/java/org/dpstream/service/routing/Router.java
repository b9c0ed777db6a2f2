package org.dpstream.service.routing;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The first step of every input: decodes the key to the id it names and stamps the record with where it
 * came from. It checks nothing and drops nothing (a record without a usable key is rejected after
 * routing, with everything else that is wrong), so it cannot fail on any input.
 */
final class Router implements Processor<byte[], byte[], String, byte[]> {

  private final String input;
  private ProcessorContext<String, byte[]> context;

  Router(String input) {
    this.input = input;
  }

  @Override
  public void init(ProcessorContext<String, byte[]> context) {
    this.context = context;
  }

  @Override
  public void process(Record<byte[], byte[]> record) {
    byte[] rawKey = record.key();
    // A null key becomes the empty id (Streams' repartitioning drops null keys; "" names no model and
    // is rejected as a missing key after routing, with the original null restored).
    String id = rawKey == null ? "" : new String(rawKey, StandardCharsets.UTF_8);
    context.forward(new Record<>(id, record.value(), record.timestamp(),
        RoutedInput.stamp(record.headers(), context.recordMetadata().orElse(null), rawKey, id, input)));
  }

  String input() {
    return input;
  }
}
