package org.dpstream.service.routing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * What routing remembers of an input record, in headers of the routed record: where it was read
 * (topic, partition, offset, for dp.rejected), which input it was (a bandit's contexts and rewards share
 * one routing topic), and its key's bytes when they are not the UTF-8 of the id (so a rejection loses
 * nothing). Headers of these names that a producer sent are replaced, never trusted.
 */
public final class RoutedInput {

  static final String SOURCE_TOPIC = "dpstream.source.topic";
  static final String SOURCE_PARTITION = "dpstream.source.partition";
  static final String SOURCE_OFFSET = "dpstream.source.offset";
  static final String SOURCE_KEY = "dpstream.source.key";
  static final String SOURCE_KEY_NULL = "dpstream.source.key-null";
  static final String INPUT = "dpstream.input";

  /** Where a routed record was first read. */
  public record Source(String topic, int partition, long offset) {}

  private RoutedInput() {}

  /** The producer's headers minus ours, plus ours for this record. */
  static Headers stamp(Headers original, RecordMetadata metadata, byte[] rawKey, String id, String input) {
    RecordHeaders headers = new RecordHeaders();
    for (Header header : original) {
      if (!header.key().startsWith("dpstream.")) {
        headers.add(header);
      }
    }
    if (metadata != null) {
      headers.add(SOURCE_TOPIC, metadata.topic().getBytes(StandardCharsets.UTF_8));
      headers.add(SOURCE_PARTITION, ByteBuffer.allocate(4).putInt(metadata.partition()).array());
      headers.add(SOURCE_OFFSET, ByteBuffer.allocate(8).putLong(metadata.offset()).array());
    }
    if (rawKey == null) {
      headers.add(SOURCE_KEY_NULL, new byte[0]);
    } else if (!Arrays.equals(rawKey, id.getBytes(StandardCharsets.UTF_8))) {
      headers.add(SOURCE_KEY, rawKey);
    }
    headers.add(INPUT, input.getBytes(StandardCharsets.UTF_8));
    return headers;
  }

  /** Where the record was read before routing, if it was routed. */
  public static Optional<Source> source(Headers headers) {
    Header topic = headers.lastHeader(SOURCE_TOPIC);
    Header partition = headers.lastHeader(SOURCE_PARTITION);
    Header offset = headers.lastHeader(SOURCE_OFFSET);
    if (topic == null || partition == null || offset == null
        || partition.value().length != 4 || offset.value().length != 8) {
      return Optional.empty();
    }
    return Optional.of(new Source(new String(topic.value(), StandardCharsets.UTF_8),
        ByteBuffer.wrap(partition.value()).getInt(), ByteBuffer.wrap(offset.value()).getLong()));
  }

  /** The key's bytes as the producer sent them. */
  public static byte[] originalKey(String id, Headers headers) {
    if (headers.lastHeader(SOURCE_KEY_NULL) != null) {
      return null;
    }
    Header raw = headers.lastHeader(SOURCE_KEY);
    if (raw != null) {
      return raw.value();
    }
    return id == null ? null : id.getBytes(StandardCharsets.UTF_8);
  }

  /** The key a rejection of the routed record carries: the id, or null if the producer sent no key. */
  public static String rejectionKey(String id, Headers headers) {
    return headers.lastHeader(SOURCE_KEY_NULL) != null ? null : id;
  }

  /** The input the routed record came from ({@link Router#input()}), or empty if it was not routed. */
  public static Optional<String> input(Headers headers) {
    Header input = headers.lastHeader(INPUT);
    return input == null ? Optional.empty() : Optional.of(new String(input.value(), StandardCharsets.UTF_8));
  }
}
