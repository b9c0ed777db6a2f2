package org.dpstream.service.streams;

import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * A processor outside dpstream's own guard, for the tests of Kafka Streams' exception handlers: it throws
 * on the value "boom" and forwards everything else.
 */
public final class ExplodingProcessor implements Processor<byte[], byte[], byte[], byte[]> {

  private final Supplier<RuntimeException> failure;
  private ProcessorContext<byte[], byte[]> context;

  public ExplodingProcessor(Supplier<RuntimeException> failure) {
    this.failure = failure;
  }

  @Override
  public void init(ProcessorContext<byte[], byte[]> context) {
    this.context = context;
  }

  @Override
  public void process(Record<byte[], byte[]> record) {
    if (new String(record.value(), StandardCharsets.UTF_8).equals("boom")) {
      throw failure.get();
    }
    context.forward(record);
  }
}
