package org.dpstream.bench.scan;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.dpstream.bench.e2e.MachineFacts;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.kafka.CheckedProducer;
import org.dpstream.service.kafka.TopicSpec;
import org.dpstream.service.release.ModelReleases;
import org.dpstream.service.release.PublishedReleases;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.SchemaSerde;
import org.dpstream.testkit.EmbeddedKafka;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * What the service's start-up read of dp.releases costs ({@link PublishedReleases}): the topic filled with releases
 * of several models on the embedded broker, then read to its end as the service reads it before its stream threads
 * start, timed (twice: the second read finds the broker's pages cached).
 */
@Command(name = "release-scan", mixinStandardHelpOptions = true,
    description = "Time the service's start-up read of dp.releases on the embedded broker.")
public final class ReleaseScanCommand implements Callable<Integer> {

  private static final String TOPIC = "dp.releases";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--releases", defaultValue = "1000000", description = "releases in the topic (default: ${DEFAULT-VALUE})")
  long releases;

  @Option(names = "--models", defaultValue = "100", description = "models they are spread over (default: ${DEFAULT-VALUE})")
  int models;

  @Option(names = "--d", defaultValue = "20", description = "parameters per release (default: ${DEFAULT-VALUE})")
  int dimension;

  @Option(names = "--partitions", defaultValue = "3", description = "partitions of the topic (default: ${DEFAULT-VALUE})")
  int partitions;

  @Override
  public Integer call() {
    if (releases < 1 || models < 1 || dimension < 1 || partitions < 1) {
      throw new IllegalArgumentException("--releases, --models, --d and --partitions must be positive");
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println(MachineFacts.describe());
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      kafka.createTopics(TopicSpec.of(TOPIC, partitions).newTopic());
      long producing = System.nanoTime();
      long bytes = produce(kafka);
      out.printf(Locale.ROOT, "produced %,d releases (%,d bytes of values, %d models, d = %d) in %.1f s%n", releases,
          bytes, models, dimension, (System.nanoTime() - producing) / 1e9);
      for (String run : List.of("first read", "second read")) {
        long started = System.nanoTime();
        PublishedReleases published = PublishedReleases.read(kafka.clientConfig(), TOPIC, Duration.ofMinutes(30));
        double seconds = (System.nanoTime() - started) / 1e9;
        out.printf(Locale.ROOT, "%s: %,d releases in %.2f s (%,.0f releases/s)%n", run, published.records(), seconds,
            published.records() / seconds);
        out.flush();
      }
    }
    return 0;
  }

  private long produce(EmbeddedKafka kafka) {
    SchemaSerde<ModelRelease> serde = DpSerdes.modelRelease();
    List<Double> parameters = new ArrayList<>();
    for (int j = 0; j < dimension; j++) {
      parameters.add(0.01 * j);
    }
    long bytes = 0;
    try (CheckedProducer<byte[], byte[]> producer = CheckedProducer.create(kafka.clientConfig(),
        Map.of(ProducerConfig.LINGER_MS_CONFIG, 20, ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024),
        new ByteArraySerializer(), new ByteArraySerializer())) {
      for (long i = 0; i < releases; i++) {
        String model = "model-" + (i % models);
        long step = i / models + 1;
        PrivacyLedger ledger = PrivacyLedger.of(new PrivacyBudget(1, 1e-5), "zcdp-cks20", 100_000, 0, 1e-6 * step, 1e-9);
        ModelRelease release = ModelReleases.of(model, step, 0, new double[0], "dp-tofw/zcdp-cks20", 1.5, ledger);
        release.setParameters(parameters);
        byte[] value = serde.encode(release);
        bytes += value.length;
        producer.send(new ProducerRecord<>(TOPIC, model.getBytes(StandardCharsets.UTF_8), value));
      }
      producer.flush();
    }
    return bytes;
  }
}
