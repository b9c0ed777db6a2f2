package org.dpstream.service.streams;

import io.micrometer.core.instrument.MeterRegistry;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.errors.DefaultProductionExceptionHandler;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.service.kafka.Topic;
import org.dpstream.service.metrics.ProcessingErrors;
import org.dpstream.service.topology.ProcessingErrorGuard;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka Streams' backstop for records that fail outside the processors' own guard
 * ({@link ProcessingErrorGuard}): an exception from any processor node (KIP-1033), an input that a
 * source's deserializer refuses, or an output that a sink cannot serialize. Each such record is sent to
 * dp.rejected as {@code PROCESSING_ERROR} through Streams' dead-letter-queue records (KIP-1034, produced
 * in the task's transaction), counted under {@code model="_streams"}, and processing resumes, instead of
 * a stream thread that dies and meets the same record again after its restart.
 *
 * <p>Errors while sending to the broker are not the record's fault (a broker or network problem): they
 * keep Kafka Streams' default handling (retry if retriable, else fail), so no output is silently dropped.
 * If the rejected record itself cannot be built or serialized, the handler fails rather than drop the
 * input.
 *
 * <p>Configured by {@link StreamsSettings}: the rejected topic and the metrics registry come in the
 * streams properties under {@value #TARGET_CONFIG}.
 */
public final class RejectingExceptionHandler
    implements ProcessingExceptionHandler, DeserializationExceptionHandler, ProductionExceptionHandler {

  /** Streams property holding the {@link Target}. */
  public static final String TARGET_CONFIG = "dpstream.rejected.target";

  private static final Logger LOG = LoggerFactory.getLogger(RejectingExceptionHandler.class);

  /**
   * Where rejections go and where they are counted.
   *
   * @param rejected the rejected topic and its serdes
   * @param registry the metrics registry, or null to count nothing (tools)
   */
  public record Target(Topic<String, RejectedRecord> rejected, MeterRegistry registry) {
    public Target {
      Objects.requireNonNull(rejected, "rejected");
    }
  }

  private final ProductionExceptionHandler sendErrors = new DefaultProductionExceptionHandler();
  private Target target;

  @Override
  public void configure(Map<String, ?> configs) {
    if (!(configs.get(TARGET_CONFIG) instanceof Target configured)) {
      throw new ConfigException(TARGET_CONFIG + " must hold the rejected topic (set by the service's streams settings)");
    }
    this.target = configured;
    sendErrors.configure(configs);
  }

  /** A processor node threw (KIP-1033). */
  @Override
  public ProcessingExceptionHandler.Response handleError(ErrorHandlerContext context, Record<?, ?> record,
      Exception exception) {
    List<ProducerRecord<byte[], byte[]>> rejection = rejection(context, context.sourceRawKey(),
        context.sourceRawValue(), exception);
    return rejection == null ? ProcessingExceptionHandler.Response.fail() : ProcessingExceptionHandler.Response.resume(rejection);
  }

  /** A source's deserializer refused an input. */
  @Override
  public DeserializationExceptionHandler.Response handleError(ErrorHandlerContext context,
      ConsumerRecord<byte[], byte[]> record, Exception exception) {
    List<ProducerRecord<byte[], byte[]>> rejection = rejection(context, record.key(), record.value(), exception);
    return rejection == null
        ? DeserializationExceptionHandler.Response.fail()
        : DeserializationExceptionHandler.Response.resume(rejection);
  }

  /** A sink could not serialize an output: the input that produced it is rejected. */
  @Override
  @SuppressWarnings("rawtypes")
  public ProductionExceptionHandler.Response handleSerializationError(ErrorHandlerContext context,
      ProducerRecord record, Exception exception, SerializationExceptionOrigin origin) {
    List<ProducerRecord<byte[], byte[]>> rejection = rejection(context, context.sourceRawKey(),
        context.sourceRawValue(), exception);
    return rejection == null ? ProductionExceptionHandler.Response.fail() : ProductionExceptionHandler.Response.resume(rejection);
  }

  /** A send to the broker failed: Kafka Streams' default (retry if retriable, else fail). */
  @Override
  public ProductionExceptionHandler.Response handleError(ErrorHandlerContext context,
      ProducerRecord<byte[], byte[]> record, Exception exception) {
    return sendErrors.handleError(context, record, exception);
  }

  /** The dp.rejected record for the input being processed, or null if it cannot be built. */
  private List<ProducerRecord<byte[], byte[]>> rejection(ErrorHandlerContext context, byte[] key, byte[] value,
      Exception exception) {
    String message = ProcessingErrorGuard.message(exception);
    // Position and exception class only: the exception's message may quote the record's data.
    LOG.warn("a record at {}-{}@{} failed in {} and goes to {}: {}", context.topic(), context.partition(),
        context.offset(), context.processorNodeId(), target.rejected().name(), message);
    if (target.registry() != null) {
      ProcessingErrors.count(target.registry(), ProcessingErrors.OUTSIDE_PROCESSORS);
    }
    try {
      RejectedRecord rejected = RejectedRecord.newBuilder()
          .setReason(ProcessingErrorGuard.REASON)
          .setMessage(message)
          .setOriginalKey(key == null ? null : ByteBuffer.wrap(key))
          .setOriginalValue(value == null ? null : ByteBuffer.wrap(value))
          .setSourceTopic(context.topic() == null ? "" : context.topic())
          .setSourcePartition(context.partition())
          .setSourceOffset(context.offset())
          .build();
      String topic = target.rejected().name();
      return List.of(new ProducerRecord<>(topic, null, key,
          target.rejected().valueSerde().serializer().serialize(topic, rejected)));
    } catch (RuntimeException e) {
      LOG.error("the rejected record could not be built ({}); failing instead of dropping the input",
          e.getClass().getName());
      return null;
    }
  }
}
