package org.dpstream.bench.e2e;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Counts committed records on output topics as a downstream reader sees them (read_committed, from
 * the beginning), which is when a result of exactly-once processing exists for anyone else.
 */
final class CommittedOutputCounter implements AutoCloseable {

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Map<String, Long> byTopic = new HashMap<>();
  private long count;
  private long firstSeenNanos;

  CommittedOutputCounter(String bootstrapServers, int partitions, String... topics) {
    consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
        ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    List<TopicPartition> all = new ArrayList<>();
    for (String topic : topics) {
      for (int p = 0; p < partitions; p++) {
        all.add(new TopicPartition(topic, p));
      }
    }
    consumer.assign(all);
    consumer.seekToBeginning(all);
  }

  /**
   * Polls until {@code expected} records are counted; fails if none arrives for {@code stall}, so a
   * stuck topology ends the benchmark instead of hanging it.
   */
  void awaitCount(long expected, Duration stall) {
    long lastProgress = System.nanoTime();
    while (count < expected) {
      ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(50));
      if (!records.isEmpty()) {
        if (count == 0) {
          firstSeenNanos = System.nanoTime();
        }
        count += records.count();
        records.partitions().forEach(p -> byTopic.merge(p.topic(), (long) records.records(p).size(), Long::sum));
        lastProgress = System.nanoTime();
      } else if (System.nanoTime() - lastProgress > stall.toNanos()) {
        throw new IllegalStateException("no committed output for " + stall + " after " + count + " of " + expected);
      }
    }
  }

  /**
   * Reads every committed record there is now (up to the last stable offset of each partition), for
   * a count that includes anything written after {@link #awaitCount} stopped reading.
   *
   * @throws IllegalStateException if the end is not reached within {@code timeout}
   */
  void readToEnd(Duration timeout) {
    Map<TopicPartition, Long> ends = consumer.endOffsets(consumer.assignment(), timeout);
    long deadline = System.nanoTime() + timeout.toNanos();
    while (ends.entrySet().stream().anyMatch(e -> consumer.position(e.getKey(), timeout) < e.getValue())) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("could not read the output to its end within " + timeout);
      }
      ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(50));
      count += records.count();
      records.partitions().forEach(p -> byTopic.merge(p.topic(), (long) records.records(p).size(), Long::sum));
    }
  }

  long count() {
    return count;
  }

  long count(String topic) {
    return byTopic.getOrDefault(topic, 0L);
  }

  /** System.nanoTime() when the first committed output was read. */
  long firstSeenNanos() {
    return firstSeenNanos;
  }

  @Override
  public void close() {
    consumer.close(Duration.ofSeconds(5));
  }
}
