package org.dpstream.app.topology;

import java.nio.ByteBuffer;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.dpstream.schemas.RejectedRecord;

/** Builds the dp.rejected record for the input record being processed: reason, message, original bytes. */
public final class Rejections {

  private Rejections() {}

  public static RejectedRecord of(ProcessorContext<?, ?> context, String reason, String message, byte[] key, byte[] value) {
    RecordMetadata metadata = context.recordMetadata().orElse(null);
    return RejectedRecord.newBuilder()
        .setReason(reason)
        .setMessage(message)
        .setOriginalKey(key == null ? null : ByteBuffer.wrap(key))
        .setOriginalValue(value == null ? null : ByteBuffer.wrap(value))
        .setSourceTopic(metadata == null ? "" : metadata.topic())
        .setSourcePartition(metadata == null ? -1 : metadata.partition())
        .setSourceOffset(metadata == null ? -1 : metadata.offset())
        .build();
  }
}
