package org.dpstream.cli.train;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.dpstream.core.erm.training.ErmSettings;
import org.dpstream.core.erm.training.ErmTrainer;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.release.ModelReleases;
import org.dpstream.service.serde.DpSerdes;

/** Builds the {@link ModelRelease} of a trained model, writes it to a file and publishes it. */
final class ReleaseOutput {

  /** The lp geometry recorded in batch ERM releases: unconstrained Euclidean weights. */
  static final double P = 2.0;

  /** How the release file is encoded. */
  enum Encoding { JSON, AVRO }

  private ReleaseOutput() {}

  /**
   * The release: step = n (training records, each used in every pass), epoch 0, p = 2, and the run's ledger
   * (the user's budget, the accountant, horizon = n, the spent (epsilon, delta)).
   *
   * @throws IllegalArgumentException for the non-private reference run, which has no ledger and is never released
   */
  static ModelRelease release(String modelId, int trainingRecords, ErmTrainer.Trained trained) {
    if (trained.ledger() == null) {
      throw new IllegalArgumentException("the non-private reference model is never released");
    }
    return ModelReleases.of(modelId, trainingRecords, 0, trained.weights(), trained.description(), P,
        trained.ledger());
  }

  static void write(ModelRelease release, Path file, Encoding encoding) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    if (encoding == Encoding.JSON) {
      Files.writeString(file, DpSerdes.modelRelease().toJson(release) + "\n", StandardCharsets.UTF_8);
    } else {
      Files.write(file, DpSerdes.modelRelease().encode(release));
    }
  }

  /**
   * Sends the release to {@code topic}, key = model id, with a plain idempotent producer, and waits for
   * the acknowledgement.
   *
   * @param extra producer settings passed through untouched (SASL, SSL, ...)
   * @return where it landed, e.g. {@code dp.releases-0@17}
   */
  static String publish(ModelRelease release, String bootstrapServers, String topic, Map<String, String> extra,
      Duration timeout) throws IOException {
    Properties properties = new Properties();
    properties.putAll(extra);
    properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    properties.putIfAbsent(ProducerConfig.ACKS_CONFIG, "all");
    properties.putIfAbsent(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    properties.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "dpstream-train");
    properties.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, String.valueOf(timeout.toMillis()));
    properties.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, String.valueOf(timeout.toMillis()));
    properties.putIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, String.valueOf(Math.min(timeout.toMillis(), 30_000)));
    try (KafkaProducer<String, ModelRelease> producer =
        new KafkaProducer<>(properties, new StringSerializer(), DpSerdes.modelRelease())) {
      RecordMetadata metadata = producer
          .send(new ProducerRecord<>(topic, release.getModelId().toString(), release))
          .get(timeout.toMillis() + 5_000, TimeUnit.MILLISECONDS);
      return metadata.topic() + "-" + metadata.partition() + "@" + metadata.offset();
    } catch (ExecutionException e) {
      throw new IOException("publishing to " + topic + " at " + bootstrapServers + " failed: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new IOException("publishing to " + topic + " at " + bootstrapServers + " timed out after " + timeout, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while publishing", e);
    }
  }
}
