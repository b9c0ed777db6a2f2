package org.dpstream.service.consume;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.dpstream.service.cli.DurationConverter;
import org.dpstream.service.kafka.ClientPropertiesFile;
import org.dpstream.service.serde.SchemaCatalog;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dpstream consume}: prints the records of any dpstream topic as JSON lines, whether the
 * service wrote them in Avro or JSON. Reads committed records only, as the service's downstream
 * consumers should, without a consumer group: it commits nothing and leaves no offsets behind.
 */
@Command(
    name = "consume",
    description = {
      "Print the records of a dpstream topic, one JSON line each:",
      "  {\"key\":...,\"partition\":...,\"offset\":...,\"value\":{...}}",
      "Values in Avro (identified by their schema fingerprint) or JSON both print as JSON; a value that is"
          + " neither prints as \"value\":null with \"valueError\" and \"valueText\" or \"valueBase64\".",
      "Only committed records are read (isolation.level=read_committed). Ends after --max-messages records or"
          + " when no record came for --timeout."
    })
public final class ConsumeCommand implements Callable<Integer> {

  private static final Duration POLL = Duration.ofMillis(200);
  /** How long to wait for the cluster's first answer when --timeout is 0 (wait for records forever). */
  private static final Duration METADATA_TIMEOUT_WHEN_UNBOUNDED = Duration.ofSeconds(60);

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Option(names = {"--bootstrap-server", "--bootstrap-servers"}, required = true, paramLabel = "HOST:PORT",
      description = "Kafka bootstrap servers, comma-separated.")
  String bootstrapServer;

  @Option(names = "--topic", required = true, paramLabel = "TOPIC", description = "The topic to read, e.g. dp.releases.")
  String topic;

  @Option(names = "--from-beginning", description = "Start at the earliest record (default: only new records).")
  boolean fromBeginning;

  @Option(names = "--max-messages", paramLabel = "N", description = "Stop after N records.")
  Long maxMessages;

  @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "10s", converter = DurationConverter.class,
      description = "Stop when no record came for this long, e.g. 10s, 2m; 0 waits forever (default: ${DEFAULT-VALUE}).")
  Duration timeout;

  @Option(names = "--consumer-property", paramLabel = "KEY=VALUE",
      description = "A Kafka consumer setting, e.g. security.protocol=SASL_SSL; repeatable; wins over --command-config.")
  Map<String, String> consumerProperties = new LinkedHashMap<>();

  @Option(names = {"--command-config", "--consumer-config"}, paramLabel = "FILE",
      description = "A properties file of Kafka client settings (SASL/SSL and the like), as the Kafka tools take it.")
  Path consumerConfig;

  /** Records printed so far. */
  private long printed;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    if (maxMessages != null && maxMessages < 1) {
      return fail(err, "--max-messages must be at least 1, got " + maxMessages);
    }
    if (timeout.isNegative()) {
      return fail(err, "--timeout must not be negative, got " + timeout);
    }
    if (consumerConfig != null && !Files.isRegularFile(consumerConfig)) {
      return fail(err, "--command-config " + consumerConfig + " is not a file");
    }
    Map<String, Object> settings;
    try {
      settings = clientSettings();
    } catch (IOException | IllegalArgumentException e) {
      return fail(err, "--command-config " + consumerConfig + " is not a readable properties file: "
          + e.getMessage());
    }
    quietenKafkaClientWarnings();
    try {
      consume(settings, spec.commandLine().getOut());
      err.println("consume: " + printed + " record(s) from " + topic);
      return 0;
    } catch (TimeoutException e) {
      return fail(err, "no answer from Kafka at " + bootstrapServer + " within " + humanDuration(metadataTimeout())
          + " (--bootstrap-server)");
    } catch (UnknownTopicException e) {
      return fail(err, "topic " + topic + " does not exist at " + bootstrapServer + " (--topic)");
    } catch (KafkaException e) {
      return fail(err, firstMessage(e));
    }
  }

  /** Kafka wraps some errors without a message of their own: the innermost one that says something. */
  private static String firstMessage(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t.getMessage() != null && !t.getMessage().isBlank()) {
        return t.getMessage();
      }
    }
    return "the Kafka client failed without a message";
  }

  private static String humanDuration(Duration duration) {
    return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + "s" : duration.toMillis() + "ms";
  }

  private void consume(Map<String, Object> settings, PrintWriter out) {
    RecordLine lines = new RecordLine(new ValueReader(SchemaCatalog.dpstream()));
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(settings, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = consumer.partitionsFor(topic, metadataTimeout()).stream()
          .map(info -> new TopicPartition(info.topic(), info.partition()))
          .toList();
      if (partitions.isEmpty()) {
        throw new UnknownTopicException();
      }
      consumer.assign(partitions);
      if (fromBeginning) {
        consumer.seekToBeginning(partitions);
      } else {
        consumer.seekToEnd(partitions);
      }
      CountDownLatch finished = new CountDownLatch(1);
      Thread hook = wakeUpOnShutdown(consumer, finished);
      try {
        printRecords(consumer, lines, out);
      } catch (WakeupException interrupted) {
        out.flush(); // Ctrl-C: what was printed stands
      } finally {
        finished.countDown();
        removeHook(hook);
      }
    }
  }

  private void printRecords(KafkaConsumer<byte[], byte[]> consumer, RecordLine lines, PrintWriter out) {
    long lastRecordAt = System.nanoTime();
    while (true) {
      ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
      for (ConsumerRecord<byte[], byte[]> record : records) {
        out.println(lines.format(record.key(), record.partition(), record.offset(), record.value()));
        printed++;
        if (maxMessages != null && printed >= maxMessages) {
          out.flush();
          return;
        }
      }
      out.flush();
      if (out.checkError()) {
        return; // stdout closed, e.g. piped into head
      }
      if (!records.isEmpty()) {
        lastRecordAt = System.nanoTime();
      } else if (!timeout.isZero() && System.nanoTime() - lastRecordAt >= timeout.toNanos()) {
        return;
      }
    }
  }

  /**
   * Committed records only, no group, no auto-created topics; --command-config, then
   * --consumer-property, may change any of these (SASL, SSL, even the isolation level); the
   * bootstrap servers are the option's.
   */
  Map<String, Object> clientSettings() throws IOException {
    Map<String, Object> settings = new HashMap<>();
    settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    settings.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
    settings.put(ConsumerConfig.CLIENT_ID_CONFIG, "dpstream-consume");
    if (consumerConfig != null) {
      settings.putAll(ClientPropertiesFile.read(consumerConfig));
    }
    settings.putAll(consumerProperties);
    settings.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServer);
    return settings;
  }

  private Duration metadataTimeout() {
    return timeout.isZero() ? METADATA_TIMEOUT_WHEN_UNBOUNDED : timeout;
  }

  /**
   * An unreachable broker makes the client warn on every reconnect attempt; the command reports it
   * once, as an error. Applies to Kafka loggers not yet created in this JVM, and only if the user
   * did not choose a level (-Dorg.slf4j.simpleLogger.log.org.apache.kafka=warn brings them back).
   */
  private static void quietenKafkaClientWarnings() {
    String kafkaLogLevel = "org.slf4j.simpleLogger.log.org.apache.kafka";
    if (System.getProperty(kafkaLogLevel) == null) {
      System.setProperty(kafkaLogLevel, "error");
    }
  }

  /** Ctrl-C wakes the consumer up, and the JVM waits (briefly) until it has closed. */
  private static Thread wakeUpOnShutdown(KafkaConsumer<?, ?> consumer, CountDownLatch finished) {
    Thread hook = new Thread(() -> {
      consumer.wakeup();
      try {
        finished.await(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "dpstream-consume-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    return hook;
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running and waits for the latch counted down before this call
    }
  }

  private static int fail(PrintWriter err, String message) {
    err.println("consume: " + message);
    err.flush();
    return 2;
  }

  /** The topic has no partitions: it does not exist (auto-creation is off). */
  private static final class UnknownTopicException extends RuntimeException {
    UnknownTopicException() {
      super(null, null, false, false);
    }
  }
}
