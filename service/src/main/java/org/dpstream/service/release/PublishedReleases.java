package org.dpstream.service.release;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.dpstream.core.privacy.accounting.Rounding;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.PrivacyLedger;
import org.dpstream.service.serde.DecodeResult;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.SchemaSerde;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What dp.releases holds, the public record of what was published: per release key (a model id, a bandit's arm id)
 * and noise generation, the newest published step and the spend its ledger states. Read once at start-up, before any
 * stream thread processes a record, with a read_committed consumer from the beginning to the end as of then. A model
 * whose generation has published releases but whose state is missing (lost), or whose state is behind the newest
 * published step (a restored backup), is refused with it: starting it at its old coordinates would draw them again.
 *
 * <p>Releases are committed with the state that made them (exactly-once), so a state that exists is never behind
 * what the scan saw; releases published after the scan only make it see less, never refuse a good state.
 *
 * <p>Not thread-safe while it is filled; read-only afterwards.
 */
public final class PublishedReleases {

  private static final Logger LOG = LoggerFactory.getLogger(PublishedReleases.class);
  private static final Duration POLL = Duration.ofMillis(200);

  /** The newest release of one key in one generation: its step and its ledger's spend (of that generation). */
  public record Newest(long step, double epsilonSpent, double deltaSpent) {}

  private final SchemaSerde<ModelRelease> serde = DpSerdes.modelRelease();
  private final Map<String, NavigableMap<Integer, Newest>> byKey = new HashMap<>();
  private long records;
  private long undecodable;

  /** Nothing published (a new topic, or tools that run without the scan). */
  public static PublishedReleases empty() {
    return new PublishedReleases();
  }

  /**
   * Reads {@code topic} from its beginning to its end as of now (read_committed, no consumer group).
   *
   * @param clientSettings bootstrap servers and security settings of a Kafka client
   * @throws IllegalStateException if the topic cannot be read to its end within {@code timeout}
   */
  public static PublishedReleases read(Map<String, Object> clientSettings, String topic, Duration timeout) {
    Map<String, Object> settings = new HashMap<>(clientSettings);
    settings.remove(ConsumerConfig.GROUP_ID_CONFIG);
    settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    settings.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
    try (Consumer<String, byte[]> consumer =
        new KafkaConsumer<>(settings, new StringDeserializer(), new ByteArrayDeserializer())) {
      return read(consumer, topic, timeout);
    }
  }

  /** Reads {@code topic} through {@code consumer} (assigned here), from the beginning to the end as of now. */
  static PublishedReleases read(Consumer<String, byte[]> consumer, String topic, Duration timeout) {
    long started = System.nanoTime();
    PublishedReleases published = new PublishedReleases();
    List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
    if (infos == null || infos.isEmpty()) {
      return published;
    }
    List<TopicPartition> partitions = infos.stream().map(p -> new TopicPartition(topic, p.partition())).toList();
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, timeout);
    long deadline = started + timeout.toNanos();
    while (partitions.stream().anyMatch(p -> consumer.position(p, timeout) < ends.get(p))) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("could not read " + topic + " to its end within " + timeout
            + " (the releases it holds decide which models may resume)");
      }
      for (ConsumerRecord<String, byte[]> record : consumer.poll(POLL)) {
        published.add(record.key(), record.value());
      }
    }
    if (published.undecodable > 0) {
      LOG.warn("{}: {} of {} releases could not be decoded and were not counted as published", topic,
          published.undecodable, published.records);
    }
    LOG.info("{}: {} releases of {} keys read in {} ms", topic, published.records, published.byKey.size(),
        (System.nanoTime() - started) / 1_000_000);
    return published;
  }

  /** Takes one release record, in the topic's order (a key's releases are in one partition, oldest first). */
  public void add(String key, byte[] value) {
    records++;
    if (key == null || value == null) {
      return;
    }
    if (!(serde.decode(value) instanceof DecodeResult.Decoded<ModelRelease> decoded)) {
      undecodable++;
      return;
    }
    PrivacyLedger ledger = decoded.value().getLedger();
    int generation = ledger.getGeneration() == null ? 0 : ledger.getGeneration();
    byKey.computeIfAbsent(key, k -> new TreeMap<>()).merge(generation,
        new Newest(decoded.value().getStep(), ledger.getEpsilonSpent(), ledger.getDeltaSpent()),
        (older, newer) -> newer.step() >= older.step() ? newer : older);
  }

  /** The newest generation {@code key} has published in; empty if it has published nothing. */
  public OptionalInt newestGeneration(String key) {
    NavigableMap<Integer, Newest> generations = byKey.get(key);
    return generations == null ? OptionalInt.empty() : OptionalInt.of(generations.lastKey());
  }

  /** The newest step {@code key} has published in {@code generation}; empty if none. */
  public OptionalLong newestStep(String key, int generation) {
    NavigableMap<Integer, Newest> generations = byKey.get(key);
    Newest newest = generations == null ? null : generations.get(generation);
    return newest == null ? OptionalLong.empty() : OptionalLong.of(newest.step());
  }

  /**
   * Generation {@code generation} of {@code key} with what its earlier generations spent together: the spend of each
   * earlier generation's newest release, added (basic composition: any two generations may have learnt from the same
   * samples).
   */
  public NoiseGeneration generation(String key, int generation) {
    double epsilon = 0;
    double delta = 0;
    NavigableMap<Integer, Newest> generations = byKey.get(key);
    if (generations != null) {
      for (Newest earlier : generations.headMap(generation, false).values()) {
        epsilon = Rounding.tightSumUp(epsilon, earlier.epsilonSpent()); // accounting rounds up
        delta = Rounding.tightSumUp(delta, earlier.deltaSpent());
      }
    }
    return generation == 0 ? NoiseGeneration.FIRST : new NoiseGeneration(generation, epsilon, delta);
  }

  /** Release records read (decodable or not). */
  public long records() {
    return records;
  }
}
