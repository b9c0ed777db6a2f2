package org.dpstream.service.topology;

import java.nio.ByteBuffer;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.service.routing.RoutedInput;

/** Builds the dp.rejected record for the input record being processed: reason, message, original bytes. */
public final class Rejections {

  private Rejections() {}

  public static RejectedRecord of(ProcessorContext<?, ?> context, String reason, String message, byte[] key, byte[] value) {
    return of(context, null, reason, message, key, value);
  }

  /**
   * The dp.rejected record of a routed input: its source coordinates are where the record was read
   * before routing (from its {@link RoutedInput} headers), not the internal routing topic.
   */
  public static RejectedRecord of(ProcessorContext<?, ?> context, Headers headers, String reason, String message,
      byte[] key, byte[] value) {
    RoutedInput.Source source = headers == null ? null : RoutedInput.source(headers).orElse(null);
    if (source != null) {
      return build(reason, message, key, value, source.topic(), source.partition(), source.offset());
    }
    RecordMetadata metadata = context.recordMetadata().orElse(null);
    return metadata == null
        ? build(reason, message, key, value, "", -1, -1)
        : build(reason, message, key, value, metadata.topic(), metadata.partition(), metadata.offset());
  }

  /** The dp.rejected record of a record read outside Kafka Streams, at its source coordinates. */
  public static RejectedRecord build(String reason, String message, byte[] key, byte[] value, String topic,
      int partition, long offset) {
    return RejectedRecord.newBuilder()
        .setReason(reason)
        .setMessage(message)
        .setOriginalKey(key == null ? null : ByteBuffer.wrap(key))
        .setOriginalValue(value == null ? null : ByteBuffer.wrap(value))
        .setSourceTopic(topic)
        .setSourcePartition(partition)
        .setSourceOffset(offset)
        .build();
  }
}
