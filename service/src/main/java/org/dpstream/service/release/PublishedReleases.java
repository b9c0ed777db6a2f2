package org.dpstream.service.release;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.dpstream.core.privacy.accounting.Rounding;
import org.dpstream.schemas.BanditStepRelease;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.PrivacyLedger;
import org.dpstream.service.serde.DecodeResult;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.SchemaSerde;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What dp.releases holds, the public record of what was published: per release key (a model id, a bandit's arm id;
 * a bandit's step record counts for each of its arms' ids) the newest release, with its noise generation, step and spend, and the spend of the earlier generations it states.
 * Read once at start-up, before any stream thread processes a record, with a read_committed consumer from the
 * beginning to the end as of then. A model whose generation has published releases but whose state is missing
 * (lost), or whose state is behind the newest published step (a restored backup), is refused with it: starting it
 * again at its old coordinates would draw them anew.
 *
 * <p>The newest release of a key says all that is needed: generations and steps only grow along a key's releases
 * (one partition, in order), and a release of generation N states what generations below N spent together. So only
 * each key's last record of a poll is decoded.
 *
 * <p>Releases are committed with the state that made them (exactly-once), so a state that exists is never behind
 * what the scan saw; releases published after the scan only make it see less, never refuse a good state.
 *
 * <p>Not thread-safe while it is filled; read-only afterwards.
 */
public final class PublishedReleases {

  private static final Logger LOG = LoggerFactory.getLogger(PublishedReleases.class);
  private static final Duration POLL = Duration.ofMillis(200);

  /**
   * The newest release of one key.
   *
   * @param generation its noise generation
   * @param step its step
   * @param epsilonSpent its ledger's epsilon spent (of its generation)
   * @param deltaSpent likewise delta
   * @param earlier what the generations before it spent together, as it states
   */
  public record Newest(int generation, long step, double epsilonSpent, double deltaSpent, NoiseGeneration earlier) {}

  private final SchemaSerde<ModelRelease> serde = DpSerdes.modelRelease();
  private final SchemaSerde<BanditStepRelease> steps = DpSerdes.banditStepRelease();
  private final Map<String, Newest> byKey = new HashMap<>();
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
    settings.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false); // a missing topic holds no release
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
      // A key's records of one poll are in one partition, in order: only its last one is decoded.
      Map<String, byte[]> newest = new LinkedHashMap<>();
      for (ConsumerRecord<String, byte[]> record : consumer.poll(POLL)) {
        published.records++;
        if (record.key() != null && record.value() != null) {
          newest.put(record.key(), record.value());
        }
      }
      newest.forEach(published::take);
    }
    if (published.undecodable > 0) {
      LOG.warn("{}: {} releases could not be decoded and were not counted as published", topic, published.undecodable);
    }
    LOG.info("{}: {} releases of {} keys read in {} ms", topic, published.records, published.byKey.size(),
        (System.nanoTime() - started) / 1_000_000);
    return published;
  }

  /** Takes one release record, in the topic's order (a key's releases are in one partition, oldest first). */
  public void add(String key, byte[] value) {
    records++;
    if (key != null && value != null) {
      take(key, value);
    }
  }

  private void take(String key, byte[] value) {
    if (serde.decode(value) instanceof DecodeResult.Decoded<ModelRelease> decoded) {
      take(key, decoded.value());
    } else if (steps.decode(value) instanceof DecodeResult.Decoded<BanditStepRelease> step) {
      // A bandit's step stands for its per-arm releases: each is counted under its own model id, as if published.
      for (ModelRelease release : BanditStepReleases.armReleases(step.value())) {
        take(release.getModelId(), release);
      }
    } else {
      undecodable++;
    }
  }

  /**
   * Keeps the release if it is the key's newest: a later generation, or a later step of the same one. Along one key
   * that is the last one read; a bandit's arms also come in its step records, under another key and so in another
   * partition, which a bandit that changed its release format may interleave with them in any order.
   */
  private void take(String key, ModelRelease release) {
    PrivacyLedger ledger = release.getLedger();
    int generation = ledger.getGeneration() == null ? 0 : ledger.getGeneration();
    Newest known = byKey.get(key);
    if (known != null && (known.generation() > generation
        || (known.generation() == generation && known.step() > release.getStep()))) {
      return;
    }
    NoiseGeneration earlier = generation == 0 ? NoiseGeneration.FIRST : new NoiseGeneration(generation,
        orZero(ledger.getEarlierGenerationsEpsilonSpent()), orZero(ledger.getEarlierGenerationsDeltaSpent()));
    byKey.put(key, new Newest(generation, release.getStep(), ledger.getEpsilonSpent(), ledger.getDeltaSpent(),
        earlier));
  }

  private static double orZero(Double value) {
    return value == null ? 0 : value;
  }

  /** The newest generation {@code key} has published in; empty if it has published nothing. */
  public OptionalInt newestGeneration(String key) {
    Newest newest = byKey.get(key);
    return newest == null ? OptionalInt.empty() : OptionalInt.of(newest.generation());
  }

  /** The newest step {@code key} has published in {@code generation}; empty if none (or it published later ones). */
  public OptionalLong newestStep(String key, int generation) {
    Newest newest = byKey.get(key);
    return newest == null || newest.generation() != generation ? OptionalLong.empty() : OptionalLong.of(newest.step());
  }

  /**
   * Generation {@code generation} of {@code key} (at least its newest published one) with what its earlier
   * generations spent together: for its newest generation what that generation's releases state; for a later one,
   * that plus the newest generation's own spend (basic composition: any two generations may have learnt from the
   * same samples), rounded up.
   *
   * @throws IllegalArgumentException if {@code key} published in a later generation
   */
  public NoiseGeneration generation(String key, int generation) {
    Newest newest = byKey.get(key);
    if (newest == null) {
      return generation == 0 ? NoiseGeneration.FIRST : new NoiseGeneration(generation, 0, 0);
    }
    if (generation < newest.generation()) {
      throw new IllegalArgumentException(key + " published in noise generation " + newest.generation()
          + ", after " + generation);
    }
    if (generation == newest.generation()) {
      return newest.earlier();
    }
    return new NoiseGeneration(generation, Rounding.tightSumUp(newest.earlier().earlierEpsilon(), newest.epsilonSpent()),
        Rounding.tightSumUp(newest.earlier().earlierDelta(), newest.deltaSpent()));
  }

  /** Release records read (decodable or not). */
  public long records() {
    return records;
  }
}
