package org.dpstream.demo;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.dpstream.schemas.BanditStepRelease;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.serde.DecodeResult;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.SchemaSerde;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads what the service publishes, as any downstream consumer would: dp.releases and dp.rejected with
 * {@code isolation.level=read_committed}, so it sees only what the service's exactly-once transactions
 * committed. Runs on its own thread and feeds a {@link StreamProgress}.
 */
final class OutputWatcher implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(OutputWatcher.class);

  private final KafkaConsumer<String, byte[]> consumer;
  private final Topics topics;
  private final StreamProgress progress;
  private final SchemaSerde<ModelRelease> releases = DpSerdes.modelRelease();
  private final SchemaSerde<BanditStepRelease> banditSteps = DpSerdes.banditStepRelease();
  private final SchemaSerde<RejectedRecord> rejections = DpSerdes.rejectedRecord();
  private final Thread thread;

  private OutputWatcher(Map<String, Object> clientConfig, Topics topics, StreamProgress progress) {
    Map<String, Object> config = new HashMap<>(clientConfig);
    config.put(ConsumerConfig.GROUP_ID_CONFIG, "dpstream-demo-watcher");
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
    this.topics = topics;
    this.progress = progress;
    this.thread = new Thread(this::pollUntilClosed, "dpstream-demo-watcher");
  }

  static OutputWatcher start(Map<String, Object> clientConfig, Topics topics, StreamProgress progress) {
    OutputWatcher watcher = new OutputWatcher(clientConfig, topics, progress);
    watcher.consumer.subscribe(List.of(topics.releases().name(), topics.rejected().name()));
    watcher.thread.start();
    return watcher;
  }

  private void pollUntilClosed() {
    try {
      while (true) {
        for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          dispatch(record);
        }
      }
    } catch (WakeupException closing) {
      // close() woke the consumer up: the normal way out.
    } catch (RuntimeException e) {
      LOG.error("the demo's output watcher stopped; progress and summary will be incomplete", e);
    } finally {
      consumer.close(Duration.ofSeconds(5));
    }
  }

  private void dispatch(ConsumerRecord<String, byte[]> record) {
    if (record.topic().equals(topics.releases().name())) {
      if (releases.decode(record.value()) instanceof DecodeResult.Decoded<ModelRelease> release) {
        progress.released(release.value());
      } else {
        // The bandit's release steps: its progress is read from its decisions (DemoBandit). Anything else is an error.
        banditSteps.decodeOrThrow(record.value());
      }
    } else {
      RejectedRecord rejected = rejections.decodeOrThrow(record.value());
      String key = rejected.getOriginalKey() == null
          ? null : StandardCharsets.UTF_8.decode(rejected.getOriginalKey()).toString();
      progress.rejected(key, rejected.getReason());
    }
  }

  @Override
  public void close() {
    consumer.wakeup();
    try {
      thread.join(Duration.ofSeconds(10).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
